import Foundation
import GuidedSchema

/// Turns an unsuccessful HTTP response into the typed error it means.
enum ResponseClassifier {
    /// Order matters: a 429 is rate limiting whatever its body says; 408/504 are timeouts; a context
    /// overflow is recognised by its envelope or body text (servers use 400, 413 or 500 for it);
    /// any other envelope is a server error; the rest is a bare HTTP failure.
    static func classify(_ failure: HTTPFailure, now: Date) -> ChatClientError {
        let document = try? JSONParser.parse(bytes: failure.body)
        let envelope = document.flatMap { ServerErrorEnvelope(document: $0) }
        if failure.status == 429 {
            let reset = failure.header("retry-after").flatMap { RetryAfter.resetDate($0, now: now) }
            return .rateLimited(resetAt: reset, failure: failure)
        }
        if failure.status == 408 || failure.status == 504 { return .timeout(failure: failure) }
        if let envelope {
            if envelope.isContextLengthError {
                return .contextSizeExceeded(message: envelope.message, failure: failure)
            }
            return .server(envelope, failure: failure)
        }
        if ServerErrorEnvelope.mentionsContextLength(failure.bodyText) {
            return .contextSizeExceeded(message: failure.bodyText, failure: failure)
        }
        return .http(failure)
    }

    /// An error envelope found in a successful body or in a stream event.
    static func classify(envelope: ServerErrorEnvelope, failure: HTTPFailure?) -> ChatClientError {
        if envelope.isContextLengthError { return .contextSizeExceeded(message: envelope.message, failure: failure) }
        return .server(envelope, failure: failure)
    }

    /// Maps a URLSession error to ours.
    static func classify(urlError error: any Error) -> ChatClientError {
        if let e = error as? URLError {
            switch e.code {
            case .timedOut: return .timeout(failure: nil)
            case .cancelled: return .cancelled
            default: return .transport(code: e.code.rawValue, message: e.localizedDescription)
            }
        }
        let ns = error as NSError
        if ns.domain == NSURLErrorDomain {
            if ns.code == NSURLErrorTimedOut { return .timeout(failure: nil) }
            if ns.code == NSURLErrorCancelled { return .cancelled }
        }
        return .transport(code: ns.code, message: ns.localizedDescription)
    }
}
