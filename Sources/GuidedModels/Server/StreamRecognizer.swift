import GuidedGrammar

/// What `JSONStreamMonitor` needs to judge streamed text: a recognizer fed one byte at a time.
///
/// Two exact implementations exist: `ReferenceRecognizer` (the Earley oracle, which refuses grammars whose
/// objects accept members in any order through member sets) and `SchemaStreamRecognizer` (the mask
/// engine's matcher over a vocabulary of the 256 bytes, which reads every grammar the compiler emits).
public protocol StreamRecognizer: Sendable {
    /// Accepts `byte` if some sentence continues with it; a refused byte leaves the recognizer unchanged.
    mutating func feed(_ byte: UInt8) -> Bool
    /// The bytes so far are a complete sentence.
    var canTerminate: Bool { get }
    /// The bytes so far are a complete sentence and no byte may follow (mutating: the matcher computes
    /// its next-byte mask in scratch it owns).
    mutating func nothingCanFollow() -> Bool
}

extension ReferenceRecognizer: StreamRecognizer {
    public mutating func nothingCanFollow() -> Bool { mustTerminate }
}
