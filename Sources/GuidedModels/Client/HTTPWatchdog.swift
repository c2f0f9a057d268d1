import Synchronization

/// Enforces `ChatTimeouts` on one exchange with the client's own clock.
///
/// URLSession's timeouts are a backstop only: on Linux, swift-corelibs-foundation hands them to curl,
/// whose request timeout does not restart reliably on every byte, and a resource timeout reports the same
/// `timedOut` code as silence, so an endless stream and a stalled one could not be told apart. The
/// delegate calls `touch()` for the head and every piece of the body; `expiry` polls at a quarter of the
/// idle limit (between 50 ms and 1 s), so it fires at most that late.
final class HTTPWatchdog: Sendable {
    private let start = ContinuousClock.now
    private let lastActivity: Mutex<ContinuousClock.Instant>

    init() {
        lastActivity = Mutex(start)
    }

    /// Records that something arrived.
    func touch() {
        let now = ContinuousClock.now
        lastActivity.withLock { $0 = now }
    }

    /// Waits until a limit is passed and returns the error that says which; nil when the waiting task
    /// was cancelled first (the exchange ended).
    func expiry(_ timeouts: ChatTimeouts) async -> ChatClientError? {
        let tick = min(1, max(0.05, min(timeouts.idle, timeouts.total) / 4))
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(tick))
            if Task.isCancelled { return nil }
            let now = ContinuousClock.now
            if now - start >= .seconds(timeouts.total) { return .deadlineExceeded(seconds: timeouts.total) }
            if now - lastActivity.withLock({ $0 }) >= .seconds(timeouts.idle) { return .timeout(failure: nil) }
        }
        return nil
    }
}
