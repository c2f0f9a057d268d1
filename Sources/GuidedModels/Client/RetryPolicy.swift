import Foundation

/// When and how long to wait before trying a failed request again.
///
/// Exponential backoff (`initialDelay × multiplier^(attempt-1)`, capped at `maximumDelay`) for transient
/// failures: rate limiting, timeouts, 500/502/503, dropped connections. A `Retry-After` the server sent
/// replaces the computed delay; if it asks for longer than `maximumDelay` the error is returned at once
/// instead of sleeping (bounded waiting). Streams are retried only before their first event.
public struct RetryPolicy: Sendable, Equatable {
    /// Total attempts, the first included; 1 disables retries.
    public var maximumAttempts: Int
    public var initialDelay: TimeInterval
    public var multiplier: Double
    public var maximumDelay: TimeInterval

    public init(maximumAttempts: Int = 3, initialDelay: TimeInterval = 0.5, multiplier: Double = 2,
                maximumDelay: TimeInterval = 30) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maximumDelay = max(0, maximumDelay)
    }

    public static let none = RetryPolicy(maximumAttempts: 1)

    /// Statuses worth another attempt: the server or a gateway in front of it is briefly unable.
    static let transientStatuses: Set<Int> = [500, 502, 503]

    /// The delay before attempt `attempt + 1` after `error` ended attempt `attempt` (1-based), or nil to
    /// give up and report the error.
    public func delay(after error: ChatClientError, attempt: Int, now: Date) -> TimeInterval? {
        guard attempt < maximumAttempts else { return nil }
        let backoff = min(maximumDelay, initialDelay * pow(multiplier, Double(attempt - 1)))
        switch error {
        case .rateLimited(let reset, _):
            guard let reset else { return backoff }
            let wait = max(0, reset.timeIntervalSince(now))
            return wait <= maximumDelay ? wait : nil
        case .timeout:
            return backoff
        // A 5xx with an `{"error": …}` envelope (OpenAI's "overloaded") is as transient as a bare one.
        case .http(let f) where RetryPolicy.transientStatuses.contains(f.status),
             .server(_, let f?) where RetryPolicy.transientStatuses.contains(f.status):
            if let ra = f.header("retry-after"), let reset = RetryAfter.resetDate(ra, now: now) {
                let wait = max(0, reset.timeIntervalSince(now))
                return wait <= maximumDelay ? wait : nil
            }
            return backoff
        case .transport(let code, _):
            let transient: Set<Int> = [
                URLError.networkConnectionLost.rawValue, URLError.cannotConnectToHost.rawValue,
                URLError.notConnectedToInternet.rawValue, URLError.dnsLookupFailed.rawValue,
            ]
            return transient.contains(code) ? backoff : nil
        default:
            return nil
        }
    }
}
