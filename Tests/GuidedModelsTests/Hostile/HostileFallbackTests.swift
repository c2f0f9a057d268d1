import Foundation
import GuidedSchema
import Testing
@testable import GuidedModels

/// The fallback for servers that do not enforce (`ServerBackend`) against the hostile server: it streams
/// through the client, so each failure must come back as `.client(<the client's typed error>)` within the
/// client's timeouts, with no attempt beyond its own retries.
@Suite("Server backend: hostile server", .serialized, .timeLimit(.minutes(10)))
struct HostileFallbackTests {
    static let schema: JSONValue = ["type": "object", "properties": ["a": ["type": "integer"]], "required": ["a"]]

    static func backend(_ server: HostileServer, idle: Double = 0.5, total: Double = 3) -> ServerBackend {
        ServerBackend(client: Hostile.client(server, idle: idle, total: total), model: "hostile", maximumRetries: 2,
                      maxTokens: 32)
    }

    static func error(_ backend: ServerBackend) async -> (ServerBackendError?, Double) {
        let start = Date()
        do throws(ServerBackendError) {
            _ = try await backend.generate(schema: schema, messages: [.user("hi")])
            return (nil, Date().timeIntervalSince(start))
        } catch {
            return (error, Date().timeIntervalSince(start))
        }
    }

    @Test func stallEndsTheGeneration() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write(Hostile.event("{"))
            c.stallUntilClientCloses()
        }
        defer { server.stop() }
        let (e, seconds) = await Self.error(Self.backend(server))
        #expect(e == .client(.timeout(failure: nil)))
        #expect(server.attempts == 1)
        #expect(await server.clientEndedEveryStall())
        #expect(seconds < HostileServerTests.bound)
    }

    @Test func endlessValidPrefixEndsAtTheDeadline() async throws {
        // `{"a": 1111…` never becomes impossible, so only the deadline can end it.
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write(Hostile.event(#"{\"a\": "#))
            while c.isOpen, c.write(Hostile.event("1")) { c.pause(0.01) }
        }
        defer { server.stop() }
        let (e, seconds) = await Self.error(Self.backend(server, total: 2))
        #expect(e == .client(.deadlineExceeded(seconds: 2)))
        #expect(server.attempts == 1)
        #expect(seconds < HostileServerTests.bound)
    }

    @Test func oversizedEventEndsTheGeneration() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write("data: ")
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
            for _ in 0..<80 where c.write(piece) {}
        }
        defer { server.stop() }
        // Deadlines as generous as the client's own 10 MB case: on a loaded 2-core CI machine moving 1 MiB
        // through the loopback took longer than 3 s once, and this case is about the size limit alone.
        var backend = Self.backend(server, idle: 2, total: 10)
        backend.client.limits = ChatLimits(maximumEventBytes: 1 << 20)
        let (e, seconds) = await Self.error(backend)
        #expect(e == .client(.eventTooLarge(limit: 1 << 20)))
        #expect(seconds < HostileServerTests.bound)
    }
}
