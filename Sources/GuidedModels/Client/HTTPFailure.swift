import Foundation
import GuidedSchema

/// What the server said when a request failed: status, headers and body, kept so callers can log or
/// inspect them (a rate-limit reset, a provider's request id) instead of a bare "HTTP error".
public struct HTTPFailure: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status; 200 for errors reported inside a successful response (an SSE error event).
    public var status: Int
    /// Response headers with lower-cased names.
    public var headers: [String: String]
    /// The body as received, cut at `ChatClient.maximumErrorBodyBytes`.
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// A header by name, case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var description: String {
        let text = bodyText
        let shown = text.count > 300 ? String(text.prefix(300)) + "…" : text
        return "HTTP \(status): \(shown)"
    }
}

/// The `{"error": …}` envelope OpenAI-compatible servers use, in a body or in an SSE event.
///
/// Servers disagree on its shape: OpenAI and llama.cpp send an object with `message`, `type`, `code`,
/// `param`; vLLM and Ollama sometimes send a bare string. Both are read; the raw value is kept.
public struct ServerErrorEnvelope: Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var type: String?
    public var code: String?
    public var param: String?
    /// The value of the `error` member as received.
    public var raw: JSONValue

    public init(message: String, type: String? = nil, code: String? = nil, param: String? = nil, raw: JSONValue) {
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.raw = raw
    }

    /// Reads an envelope from a parsed document; nil when the document has no `error` member or it is null.
    public init?(document: JSONValue) {
        // Gemini's OpenAI-compatible endpoint wraps the envelope in a one-element array.
        if case .array(let items) = document, items.count == 1, let first = items.first {
            self.init(document: first)
            return
        }
        guard let error = document["error"], !error.isNull else { return nil }
        switch error {
        case .string(let s):
            self.init(message: s, raw: error)
        case .object(let o):
            func text(_ key: String) -> String? {
                switch o[key] {
                case .string(let s)?: return s
                case .number(let n)?: return n.text
                default: return nil
                }
            }
            self.init(message: text("message") ?? error.serialized(), type: text("type") ?? text("status"), code: text("code"),
                      param: text("param"), raw: error)
        default:
            self.init(message: error.serialized(), raw: error)
        }
    }

    public var description: String {
        var parts = [message]
        if let type { parts.append("type \(type)") }
        if let code { parts.append("code \(code)") }
        return parts.joined(separator: ", ")
    }

    /// True when the error says the prompt and completion do not fit the model's context window.
    ///
    /// Matched on what the common servers send: OpenAI's `context_length_exceeded` code, llama.cpp's
    /// `exceed_context_size_error` type, and the messages of vLLM ("maximum context length"),
    /// llama-cpp-python ("Requested tokens (…) exceed context window"), Ollama and Azure.
    public var isContextLengthError: Bool {
        if code == "context_length_exceeded" || type == "exceed_context_size_error" { return true }
        return ServerErrorEnvelope.mentionsContextLength(message)
    }

    static func mentionsContextLength(_ text: String) -> Bool {
        let t = text.lowercased()
        let phrases = [
            "context_length_exceeded", "exceed_context_size", "maximum context length", "context length exceeded",
            "exceeds the context window", "exceed context window", "exceeds the available context size",
            "context window exceeded", "exceeds maximum context", "prompt is too long", "input is too long for",
            "too many tokens in the prompt", "exceeds the model's context", "exceeds the maximum number of tokens allowed",
        ]
        return phrases.contains { t.contains($0) }
    }
}
