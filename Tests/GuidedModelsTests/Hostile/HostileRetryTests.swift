import Foundation
import Testing
@testable import GuidedModels

/// 429 and 503 with and without `Retry-After`: retried a bounded number of times, honouring the server's
/// delay (up to `RetryPolicy.maximumDelay`) or backing off exponentially. The server counts the attempts
/// and records when each arrived, so the delays are read from its side.
@Suite("Client: hostile server retries", .serialized, .timeLimit(.minutes(10)))
struct HostileRetryTests {
    /// A server that answers every request with `status` (and `Retry-After` when given).
    /// With `envelope` the body is an `{"error": …}` envelope (as OpenAI sends with 503), else plain text.
    static func refusing(_ status: String, retryAfter: String?, envelope: Bool = true) throws -> HostileServer {
        try HostileServer { c in
            let body = envelope ? #"{"error":{"message":"busy","type":"overloaded"}}"# : "Service Unavailable"
            var headers = ["Content-Type: \(envelope ? "application/json" : "text/plain")", "Content-Length: \(body.utf8.count)"]
            if let retryAfter { headers.append("Retry-After: \(retryAfter)") }
            c.head(status, headers)
            c.write(body)
        }
    }

    /// Seconds between consecutive attempts, as the server saw them.
    static func gaps(_ server: HostileServer) -> [Double] {
        let t = server.attemptTimes
        return zip(t.dropFirst(), t).map { $0.timeIntervalSince($1) }
    }

    @Test(arguments: Hostile.Mode.allCases)
    func rateLimitedWithRetryAfter(_ mode: Hostile.Mode) async throws {
        let server = try Self.refusing("429 Too Many Requests", retryAfter: "1")
        defer { server.stop() }
        let retry = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 5)
        let r = await Hostile.run(Hostile.client(server, retry: retry), mode)
        guard case .rateLimited(let reset, let failure)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(reset != nil)
        #expect(failure.status == 429)
        #expect(server.attempts == 3)
        // The server's second was waited each time, not the 10 ms backoff.
        #expect(Self.gaps(server).allSatisfy { $0 >= 0.9 })
        #expect(r.seconds < HostileServerTests.bound)
    }

    @Test(arguments: Hostile.Mode.allCases)
    func rateLimitedWithoutRetryAfter(_ mode: Hostile.Mode) async throws {
        let server = try Self.refusing("429 Too Many Requests", retryAfter: nil)
        defer { server.stop() }
        let retry = RetryPolicy(maximumAttempts: 4, initialDelay: 0.1, multiplier: 2, maximumDelay: 5)
        let r = await Hostile.run(Hostile.client(server, retry: retry), mode)
        guard case .rateLimited(let reset, _)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(reset == nil)
        #expect(server.attempts == 4)
        // 0.1, 0.2, 0.4 s: each wait at least its backoff step.
        let gaps = Self.gaps(server)
        #expect(gaps.count == 3)
        for (gap, step) in zip(gaps, [0.1, 0.2, 0.4]) { #expect(gap >= step * 0.9) }
        #expect(r.seconds < HostileServerTests.bound)
    }

    /// A 503 carrying an error envelope: it used to be classified `.server` and then not retried at all.
    @Test(arguments: Hostile.Mode.allCases)
    func unavailableWithRetryAfter(_ mode: Hostile.Mode) async throws {
        let server = try Self.refusing("503 Service Unavailable", retryAfter: "1")
        defer { server.stop() }
        let retry = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 5)
        let r = await Hostile.run(Hostile.client(server, retry: retry), mode)
        guard case .server(let envelope, let failure?)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(envelope.message == "busy")
        #expect(failure.status == 503)
        #expect(failure.header("retry-after") == "1")
        #expect(server.attempts == 3)
        #expect(Self.gaps(server).allSatisfy { $0 >= 0.9 })
        #expect(r.seconds < HostileServerTests.bound)
    }

    @Test(arguments: Hostile.Mode.allCases)
    func unavailableWithoutRetryAfter(_ mode: Hostile.Mode) async throws {
        let server = try Self.refusing("503 Service Unavailable", retryAfter: nil, envelope: false)
        defer { server.stop() }
        let retry = RetryPolicy(maximumAttempts: 3, initialDelay: 0.05, multiplier: 2, maximumDelay: 5)
        let r = await Hostile.run(Hostile.client(server, retry: retry), mode)
        guard case .http(let failure)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(failure.status == 503)
        #expect(failure.bodyText == "Service Unavailable")
        #expect(server.attempts == 3)
        #expect(r.seconds < HostileServerTests.bound)
    }

    /// A `Retry-After` beyond `maximumDelay` is not waited at all: the error comes back at once.
    @Test(arguments: ["429 Too Many Requests", "503 Service Unavailable"])
    func retryAfterBeyondTheMaximum(_ status: String) async throws {
        let server = try Self.refusing(status, retryAfter: "3600")
        defer { server.stop() }
        let retry = RetryPolicy(maximumAttempts: 5, initialDelay: 0.01, maximumDelay: 2)
        let r = await Hostile.run(Hostile.client(server, retry: retry), .complete)
        #expect(r.error?.failure?.status == Int(status.prefix(3)))
        #expect(server.attempts == 1)
        #expect(r.seconds < HostileServerTests.bound)
    }

    /// Stalled attempts are retried too (a timeout is transient), and the whole stays bounded:
    /// attempts × idle plus the backoff.
    @Test func stalledAttemptsAreRetriedBoundedly() async throws {
        let server = try HostileServer { c in c.stallUntilClientCloses() }
        defer { server.stop() }
        let retry = RetryPolicy(maximumAttempts: 3, initialDelay: 0.05, maximumDelay: 1)
        let r = await Hostile.run(Hostile.client(server, retry: retry), .stream)
        #expect(r.error == .timeout(failure: nil))
        #expect(server.attempts == 3)
        #expect(await server.clientEndedEveryStall())
        #expect(r.seconds < Double(server.attempts) * HostileServerTests.bound)
    }

    /// An endless stream that delivered chunks is not retried (that would repeat them), and a deadline is
    /// not retried at all.
    @Test func deadlineIsNotRetried() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            while c.isOpen, c.write(": ping\n") { c.pause(0.05) }
        }
        defer { server.stop() }
        let retry = RetryPolicy(maximumAttempts: 3, initialDelay: 0.05, maximumDelay: 1)
        let r = await Hostile.run(Hostile.client(server, idle: 0.5, total: 1.5, retry: retry), .stream)
        #expect(r.error == .deadlineExceeded(seconds: 1.5))
        #expect(server.attempts == 1)
        #expect(r.seconds < HostileServerTests.bound)
    }
}
