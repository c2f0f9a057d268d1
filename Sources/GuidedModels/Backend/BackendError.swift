/// Errors a backend reports about its input.
public enum BackendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `append` was called with no tokens.
    case emptyAppend
    /// A token id outside the vocabulary.
    case tokenOutOfRange(token: Int, vocabularySize: Int)
    /// The logits buffer does not have `vocabulary.size` floats.
    case logitsBufferSize(given: Int, required: Int)
    /// The training text gave the model nothing to learn from.
    case emptyCorpus(String)

    public var description: String {
        switch self {
        case .emptyAppend: return "append needs at least one token"
        case .tokenOutOfRange(let t, let n): return "token \(t) is outside the vocabulary of \(n) tokens"
        case .logitsBufferSize(let g, let r): return "logits buffer has \(g) floats, the vocabulary needs \(r)"
        case .emptyCorpus(let s): return "empty training corpus: \(s)"
        }
    }
}
