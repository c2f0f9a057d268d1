#if Llama
import GuidedTokenizers

/// What can go wrong loading a GGUF model into llama.cpp or decoding with it. Bad input is one of these,
/// never a trap; llama.cpp's own reason (its last error line, captured from its log) is quoted where it
/// gives one.
public enum LlamaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at `path`.
    case missingFile(path: String)
    /// The file does not start with the GGUF magic (not a model llama.cpp can read).
    case notGGUF(path: String)
    /// llama.cpp does not know the file's `general.architecture`.
    case unsupportedArchitecture(path: String, architecture: String)
    /// llama.cpp refused the file for another reason (truncated, inconsistent tensors, ...).
    case modelNotLoaded(path: String, reason: String)
    /// llama.cpp could not make a context (too little memory for the KV cache, a bad parameter, ...).
    case contextNotCreated(reason: String)
    /// The package's own reader refused the file's `tokenizer.ggml.*` vocabulary.
    case vocabulary(TokenizerError)
    /// The tokenizer the caller passed does not have the model's tokens, or llama.cpp counts the
    /// model's tokens differently from the file's vocabulary.
    case vocabularyMismatch(String)
    /// A parameter of `LlamaModel.Options` or `LlamaBackend.Configuration` is out of range.
    case invalidConfiguration(String)
    /// A sequence would grow past the context: `length` tokens already in it, `appending` more, room for
    /// `contextLength`.
    case contextOverflow(length: Int, appending: Int, contextLength: Int)
    /// More live sequences than the backend's `maximumSequences`.
    case tooManySequences(limit: Int)
    /// `llama_decode` failed with `status` (1: no room left in the KV cache after evicting every
    /// retained prompt; 2: aborted; negative: invalid batch or a fatal error).
    case decodeFailed(status: Int32)
    /// A rollback to more tokens than the sequence holds.
    case rollbackPastEnd(length: Int, requested: Int)
    /// The model's memory cannot drop the end of a sequence (recurrent models keep no per-token state).
    case rollbackUnsupported

    public var description: String {
        switch self {
        case .missingFile(let path): return "\(path): no such file"
        case .notGGUF(let path): return "\(path): not a GGUF file (no GGUF magic)"
        case .unsupportedArchitecture(let path, let arch):
            return "\(path): llama.cpp does not support the model architecture '\(arch)'"
        case .modelNotLoaded(let path, let reason): return "\(path): llama.cpp cannot load the model: \(reason)"
        case .contextNotCreated(let reason): return "llama.cpp cannot make a context: \(reason)"
        case .vocabulary(let error): return "the model's vocabulary: \(error)"
        case .vocabularyMismatch(let detail): return "vocabulary mismatch: \(detail)"
        case .invalidConfiguration(let detail): return "invalid configuration: \(detail)"
        case .contextOverflow(let length, let appending, let context):
            return "the sequence would exceed the context: \(length) tokens + \(appending) new > \(context)"
        case .tooManySequences(let limit): return "more than \(limit) sequences at once (maximumSequences)"
        case .decodeFailed(let status): return "llama_decode failed with status \(status)"
        case .rollbackPastEnd(let length, let requested):
            return "cannot roll back to \(requested) tokens: the sequence holds \(length)"
        case .rollbackUnsupported: return "this model's memory cannot drop the end of a sequence"
        }
    }
}
#endif
