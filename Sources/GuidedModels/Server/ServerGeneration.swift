import GuidedSchema

/// What one request of a server generation produced.
public struct ServerAttempt: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// The value validated.
        case valid
        /// The stream was cancelled at `offset`, the first byte no value of the schema can have.
        case abortedEarly(offset: Int)
        /// The output parsed as JSON but the validator found violations (messages, first ones first).
        case invalid([String])
        /// The output is not a complete JSON value (cut short, or not JSON); the reason says which.
        case notJSON(String)
    }

    /// The text the server streamed before the attempt ended (all of it, leading text included).
    public var text: String
    public var outcome: Outcome
    /// Content chunks received (servers send about one token per chunk).
    public var chunksReceived: Int
    /// Completion tokens the server reported (`usage`), when it did.
    public var reportedCompletionTokens: Int?
    /// Tokens not generated because the stream was cancelled at an impossible byte: `maxTokens` minus the
    /// tokens received (reported usage when present, else content chunks, about one token each). An upper
    /// bound: the model might have stopped earlier. 0 when the attempt was not aborted (a stream stopped
    /// after a complete value saves an unknown, usually small, amount that is not counted).
    public var tokensSaved: Int

    public init(text: String, outcome: Outcome, chunksReceived: Int, reportedCompletionTokens: Int?, tokensSaved: Int) {
        self.text = text
        self.outcome = outcome
        self.chunksReceived = chunksReceived
        self.reportedCompletionTokens = reportedCompletionTokens
        self.tokensSaved = tokensSaved
    }

    /// One line for a retry prompt or a log.
    public var problem: String? {
        switch outcome {
        case .valid: return nil
        case .abortedEarly(let offset):
            let prefix = String(decoding: Array(text.utf8).prefix(offset + 1), as: UTF8.self)
            return "the output cannot fit the schema from byte \(offset) on (it began \(prefix.debugDescription))"
        case .invalid(let messages): return "the value does not fit the schema: " + messages.prefix(5).joined(separator: "; ")
        case .notJSON(let reason): return reason
        }
    }
}

/// A schema-valid value from a server, and how it was obtained.
public struct ServerGeneration: Sendable, Equatable {
    /// The value; the validator accepted it.
    public var value: JSONValue
    /// Its text as the server wrote it (without a surrounding fence).
    public var text: String
    /// The enforcement the backend ran with; whatever it is, the value was validated.
    public var enforcement: ServerEnforcement
    /// Every request made, the successful one last.
    public var attempts: [ServerAttempt]

    /// Tokens not generated thanks to early cancellation, over all attempts.
    public var tokensSaved: Int { attempts.reduce(0) { $0 + $1.tokensSaved } }
}

/// Why a server generation produced no value.
public enum ServerBackendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every attempt produced output that does not fit; they are all listed.
    case noValidOutput(attempts: [ServerAttempt], enforcement: ServerEnforcement)
    /// The request failed.
    case client(ChatClientError)
    /// The server's tool-call deltas assembled into calls that make no sense (a call with no name).
    case malformedToolCalls(String)

    public var description: String {
        switch self {
        case .noValidOutput(let attempts, let enforcement):
            let last = attempts.last?.problem ?? "no attempt"
            return "no schema-valid output after \(attempts.count) attempt\(attempts.count == 1 ? "" : "s") "
                + "(enforcement \(enforcement)); last: \(last)"
        case .client(let e): return e.description
        case .malformedToolCalls(let m): return "malformed tool calls: \(m)"
        }
    }
}
