import GuidedGrammar
import GuidedMask
import GuidedSchema

/// Why a session could not return a response.
public enum GuidedSessionError: Error, Sendable, CustomStringConvertible {
    /// Why generation stopped before the value was complete.
    public enum IncompleteReason: String, Sendable, Equatable {
        /// `maximumResponseTokens` ran out while the grammar still required more.
        case tokenBudget
        /// A stop string cut the text where the value was not complete.
        case stopString
    }

    /// The output ended before it was a complete value of the schema. Carries what was generated and the
    /// partial value the tolerant parser reads from it (nil when not even a prefix of a value was produced).
    case incompleteOutput(reason: IncompleteReason, partial: JSONValue?, text: String, tokenCount: Int)
    /// The schema cannot be enforced exactly: the compiler's error, with its kind, keyword and pointer.
    case schemaRefused(JSONSchemaCompileError)
    /// The Swift type's schema could not be derived or exported.
    case schemaUnavailable(String)
    /// The grammar could not be compiled against the vocabulary (or the vocabulary could not be indexed).
    case grammarCompile(GrammarCompileError)
    /// The server backend produced no valid value (every attempt is listed) or its request failed.
    case server(ServerBackendError)
    /// The call needs a local logits backend (token ids, free text, prompt tokens) and the session runs
    /// over a server.
    case unsupportedOnServer(String)
    /// The backend failed.
    case backend(String)
    /// The mask engine failed closed (limits), or a sampling parameter was invalid.
    case decoding(String)
    /// The complete, schema-valid JSON did not decode into the requested Swift type.
    case typeDecoding(String)
    /// The tools cannot be constrained (a tool's schema refused, naming the tool and the keyword; a
    /// `toolChoice` naming no declared tool; ...).
    case toolFormat(ToolFormatError)
    /// A tool call's arguments were read as another tool's, or do not decode into its `Arguments`.
    case toolArguments(tool: String, String)

    public var description: String {
        switch self {
        case .incompleteOutput(let reason, let partial, let text, let n):
            let why = reason == .tokenBudget ? "the token budget ran out" : "a stop string cut it"
            return "incomplete output after \(n) tokens (\(why)): \(text.debugDescription); partial value \(partial.map { $0.serialized() } ?? "none")"
        case .schemaRefused(let m): return "schema refused: \(m)"
        case .schemaUnavailable(let m): return "schema unavailable: \(m)"
        case .grammarCompile(let e): return "grammar compile failed: \(e)"
        case .server(let e): return "server: \(e)"
        case .unsupportedOnServer(let call): return "\(call) needs a local logits backend; this session runs over a server"
        case .backend(let m): return "backend failed: \(m)"
        case .decoding(let m): return "decoding failed: \(m)"
        case .typeDecoding(let m): return "could not decode the value: \(m)"
        case .toolFormat(let e): return "tools: \(e)"
        case .toolArguments(let tool, let m): return "tool '\(tool)': \(m)"
        }
    }
}
