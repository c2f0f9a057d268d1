import Foundation

/// Everything a chat request can fail with. Every case that came from the server keeps the status,
/// headers and body (`HTTPFailure`), so nothing the server said is lost.
public enum ChatClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The base URL or path cannot make an http(s) request URL.
    case invalidEndpoint(String)
    /// The endpoint names an API-key environment variable that is unset or empty.
    case missingAPIKey(variable: String)
    /// The request asks for something its dialect cannot express (an option, a constraint kind).
    case unsupportedByDialect(dialect: String, feature: String)
    /// The request is contradictory or malformed before anything is sent.
    case invalidRequest(String)
    /// The schema is outside OpenAI's strict subset; every violation is listed. Nothing was sent.
    case strictSchemaViolations([StrictSchemaViolation])
    /// HTTP 429. `resetAt` comes from `Retry-After` (seconds or an HTTP date) when the server sent one.
    case rateLimited(resetAt: Date?, failure: HTTPFailure)
    /// HTTP 408 or 504, or the transport timed out (then `failure` is nil).
    case timeout(failure: HTTPFailure?)
    /// The prompt (plus the requested completion) does not fit the model's context window.
    case contextSizeExceeded(message: String, failure: HTTPFailure?)
    /// The server answered with an `{"error": …}` envelope, in a body or as an event of a stream.
    case server(ServerErrorEnvelope, failure: HTTPFailure?)
    /// Any other non-2xx status.
    case http(HTTPFailure)
    /// The connection failed (refused, reset, DNS, TLS); `code` is the `URLError` code.
    case transport(code: Int, message: String)
    /// The server's answer is not the JSON (or event stream) the protocol says.
    case malformedResponse(reason: String, body: String)
    /// The stream ended with neither `[DONE]` nor a finish reason: the answer may be cut short.
    case streamIncomplete(reason: String)
    /// The caller's task was cancelled; the HTTP request was cancelled with it.
    case cancelled
    /// The body grew past `ChatLimits.maximumResponseBytes` (`limit`); the request was cancelled there.
    case responseTooLarge(limit: Int)
    /// An SSE line or event, or an NDJSON line, grew past `ChatLimits.maximumEventBytes` (`limit`); the
    /// request was cancelled there.
    case eventTooLarge(limit: Int)
    /// The whole exchange took longer than `ChatTimeouts.total` (`seconds`), though data kept arriving (an
    /// endless stream). Silence longer than `ChatTimeouts.idle` is `.timeout(failure: nil)` instead.
    case deadlineExceeded(seconds: Double)
    /// The reader fell more than `ChatLimits.maximumReadAheadBytes` (`limit`) behind the server; the
    /// request was cancelled rather than buffer the difference.
    case readAheadExceeded(limit: Int)

    public var description: String {
        switch self {
        case .invalidEndpoint(let s): return "invalid endpoint: \(s)"
        case .missingAPIKey(let v): return "API key environment variable \(v) is unset or empty"
        case .unsupportedByDialect(let d, let f): return "the \(d) dialect cannot express \(f)"
        case .invalidRequest(let s): return "invalid request: \(s)"
        case .strictSchemaViolations(let v):
            return "schema is outside OpenAI's strict subset (\(v.count) violation\(v.count == 1 ? "" : "s")): "
                + v.map(\.description).joined(separator: "; ")
        case .rateLimited(let reset, let f):
            return "rate limited (HTTP \(f.status))" + (reset.map { ", retry after \($0)" } ?? "")
        case .timeout(let f): return f.map { "timed out (HTTP \($0.status))" } ?? "timed out"
        case .contextSizeExceeded(let m, _): return "context size exceeded: \(m)"
        case .server(let e, let f): return "server error\(f.map { " (HTTP \($0.status))" } ?? ""): \(e)"
        case .http(let f): return f.description
        case .transport(let code, let m): return "transport error \(code): \(m)"
        case .malformedResponse(let r, let body):
            return "malformed response: \(r)" + (body.isEmpty ? "" : " in \(body.prefix(200))")
        case .streamIncomplete(let r): return "stream incomplete: \(r)"
        case .cancelled: return "cancelled"
        case .responseTooLarge(let limit): return "response larger than \(limit) bytes"
        case .eventTooLarge(let limit): return "stream line or event larger than \(limit) bytes"
        case .deadlineExceeded(let seconds): return "the exchange took longer than its \(seconds) s deadline"
        case .readAheadExceeded(let limit): return "the reader fell more than \(limit) bytes behind the server"
        }
    }

    /// The HTTP details, when the error came from a response.
    public var failure: HTTPFailure? {
        switch self {
        case .rateLimited(_, let f), .http(let f): return f
        case .timeout(let f), .contextSizeExceeded(_, let f), .server(_, let f): return f
        default: return nil
        }
    }
}
