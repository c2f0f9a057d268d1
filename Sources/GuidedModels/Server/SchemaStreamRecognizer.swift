import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// An exact stream recognizer built on the mask engine: the schema's grammar compiled against a vocabulary
/// whose token `b` is the single byte `b`, and a `GrammarMatcher` fed token by token.
///
/// Why not `ReferenceRecognizer`: the server backend compiles schemas with `PropertyOrder.memberSets`, so
/// that a server's valid `{"b":…,"a":…}` for a schema declaring `a` first is not cancelled, and the Earley
/// recognizer refuses member-set grammars (their member guards live in the mask engine's automaton). The
/// matcher reads them, and it is the same engine that enforces the mask locally, so "valid" means the same
/// thing on both paths.
public struct SchemaStreamRecognizer: StreamRecognizer {
    /// The 256 single-byte tokens; built once per process (a 256-token trie, well under a millisecond).
    static let byteVocabulary: Result<VocabularyIndex, GrammarCompileError> = Result { () throws(GrammarCompileError) -> VocabularyIndex in
        try VocabularyIndex(TokenVocabulary(tokens: (0..<256).map { [UInt8($0)] }))
    }

    private var matcher: GrammarMatcher
    /// Next-byte mask scratch: 8 words of 32 bits, one bit per byte value.
    private var mask: [UInt32]
    /// The matcher failed closed (a limit of the mask engine): the recognizer refuses from then on, and
    /// the monitor reports the byte as impossible; `failure` says why.
    public private(set) var failure: MatcherError?

    /// Compiles `grammar` for the byte vocabulary (no history kept: a stream is never rolled back).
    public init(_ grammar: Grammar, limits: MaskLimits = MaskLimits()) throws(GrammarCompileError) {
        let index = try Self.byteVocabulary.get()
        matcher = GrammarMatcher(try CompiledGrammar(grammar, vocabulary: index, limits: limits), maxRollback: 0)
        mask = [UInt32](repeating: 0, count: index.maskWords)
    }

    public mutating func feed(_ byte: UInt8) -> Bool {
        guard failure == nil else { return false }
        do {
            try matcher.accept(token: Int(byte))
            return true
        } catch .tokenRejected(_, _) {
            return false
        } catch {
            failure = error
            return false
        }
    }

    public var canTerminate: Bool { matcher.canTerminate }

    public mutating func nothingCanFollow() -> Bool {
        guard canTerminate else { return false }
        do { try matcher.fillNextTokenMask(into: &mask) } catch {
            // Unknown continuation: say something may follow, so the value is judged when the stream ends.
            return false
        }
        return mask.allSatisfy { $0 == 0 }
    }
}
