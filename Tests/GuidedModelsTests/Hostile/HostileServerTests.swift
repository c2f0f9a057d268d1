import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import GuidedModels

/// The client against a server that misbehaves on purpose (issue 25 item 6). Every case ends in one exact
/// typed error; a case whose server stalls also asserts that the client hung up (its own timer ended the
/// call, not the server), and every case finishes within `bound`, the stall (see `Hostile.stall`).
/// Memory is asserted through what the client holds: each limit (`ChatLimits`) is checked as bytes
/// arrive and ends the call with its own error case; the parsers' byte counters are asserted in
/// HostileParserLimitTests. The suites' time limits are backstops against hangs, not measurements.
@Suite("Client: hostile server", .serialized, .timeLimit(.minutes(10)))
struct HostileServerTests {
    /// The time bound of every case (idle 0.5 s or total 2-3 s configured): the server's stall.
    static let bound = Hostile.stall

    // MARK: Timeouts

    @Test(arguments: Hostile.Mode.allCases)
    func slowHeaders(_ mode: Hostile.Mode) async throws {
        let server = try HostileServer { c in c.stallUntilClientCloses() }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), mode)
        #expect(r.error == .timeout(failure: nil))
        #expect(await server.clientEndedEveryStall())
        #expect(r.seconds < Self.bound)
        #expect(server.attempts == 1)
    }

    /// The server holds the half head until the client hangs up: closing first would take the client
    /// into the crash of `headersCutOffByClose` if its cancellation were still being processed.
    @Test(arguments: Hostile.Mode.allCases)
    func headersNeverFinished(_ mode: Hostile.Mode) async throws {
        let server = try HostileServer { c in
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Half: ")
            c.stallUntilClientCloses()
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), mode)
        #expect(r.error == .timeout(failure: nil))
        #expect(await server.clientEndedEveryStall())
        #expect(r.seconds < Self.bound)
    }

    /// A head cut off by the server closing the connection: curl reports the transfer complete, and
    /// swift-corelibs-foundation then stops the process (`NativeProtocol.swift:240: Fatal error: Transfer
    /// completed, but there's no response.`, reproduced with the 6.3 toolchain in both modes). Nothing the
    /// client does with URLSession can catch that; only a transport of its own would. Kept, disabled, as
    /// the record of the case and the test to enable when the transport changes.
    @Test(.disabled("crashes the process inside swift-corelibs-foundation; see the comment"),
          arguments: Hostile.Mode.allCases)
    func headersCutOffByClose(_ mode: Hostile.Mode) async throws {
        let server = try HostileServer { c in
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Half: ")
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), mode)
        guard case .transport? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(r.seconds < Self.bound)
    }

    @Test func bodyStallsMidEvent() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write(Hostile.event("a"))
            c.write(#"data: {"choices":[{"index":0,"delta":{"content":"#)
            c.stallUntilClientCloses()
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .stream)
        #expect(r.error == .timeout(failure: nil))
        #expect(r.chunks == 1)
        #expect(await server.clientEndedEveryStall())
        #expect(r.seconds < Self.bound)
    }

    @Test func bodyStallsMidJSON() async throws {
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: application/json", "Content-Length: \(Hostile.completion.utf8.count)"])
            c.write(String(Hostile.completion.prefix(30)))
            c.stallUntilClientCloses()
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .complete)
        #expect(r.error == .timeout(failure: nil))
        #expect(await server.clientEndedEveryStall())
        #expect(r.seconds < Self.bound)
    }

    /// Data keeps coming, so the idle timeout never fires: the total deadline must.
    @Test func endlessStream() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            while c.isOpen, c.write(Hostile.event("x")) { c.pause(0.01) }
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server, idle: 0.5, total: 2), .stream)
        #expect(r.error == .deadlineExceeded(seconds: 2))
        #expect(r.chunks > 0)
        #expect(r.seconds < Self.bound)
    }

    /// Keep-alive comments are activity too; they must not keep a stream alive past its deadline.
    @Test func endlessKeepAlives() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            while c.isOpen, c.write(": ping\n") { c.pause(0.05) }
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server, idle: 0.5, total: 2), .stream)
        #expect(r.error == .deadlineExceeded(seconds: 2))
        #expect(r.chunks == 0)
        #expect(r.seconds < Self.bound)
    }

    @Test func endlessBody() async throws {
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: application/json", "Connection: close"])
            c.write("[")
            let piece = String(repeating: "1,", count: 512)
            while c.isOpen, c.write(piece) { c.pause(0.01) }
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server, idle: 0.5, total: 2), .complete)
        #expect(r.error == .deadlineExceeded(seconds: 2))
        #expect(r.seconds < Self.bound)
    }

    // MARK: Size limits

    /// 10 MB in one SSE line against the default 4 MiB event limit.
    @Test func tenMegabyteLine() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write("data: ")
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
            for _ in 0..<160 where c.write(piece) {}
            c.write("\n\n")
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server, idle: 2, total: 10), .stream)
        #expect(r.error == .eventTooLarge(limit: 4 << 20))
        #expect(r.seconds < Self.bound)
    }

    /// A 50 MB JSON body against a 1 MiB response limit, for a plain request and for a stream request the
    /// server answers with JSON (counted by the transport as it arrives, so the response limit is met
    /// before the read-ahead limit however slow the reader; a loaded full test run once saw the other). What the server manages to write is not asserted: swift-corelibs-foundation
    /// keeps reading while a cancellation is processed (32 of the 50 MB were measured), outside the client's
    /// reach; the client's own holding is bounded by the limit and by `maximumReadAheadBytes` (below).
    @Test(arguments: Hostile.Mode.allCases)
    func fiftyMegabyteBody(_ mode: Hostile.Mode) async throws {
        let size = 50 << 20
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: application/json", "Content-Length: \(size)"])
            c.write(#"{"pad":""#)
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
            for _ in 0..<(size / piece.count) where c.write(piece) {}
        }
        defer { server.stop() }
        let limits = ChatLimits(maximumResponseBytes: 1 << 20)
        let r = await Hostile.run(Hostile.client(server, idle: 2, total: 20, limits: limits), mode)
        #expect(r.error == .responseTooLarge(limit: 1 << 20))
        #expect(r.seconds < Self.bound)
    }

    /// A server far faster than its reader: 50 MB of valid events as fast as the socket takes them, read
    /// by an `onChunk` that needs 5 ms per chunk. The client fails once it holds 1 MiB unread instead of
    /// buffering the difference. The server waits 200 ms after its first events, so that the reader has
    /// taken some before the flood even on a loaded machine (without the pause, a full parallel test run
    /// once saw the limit passed before the first chunk reached the reader).
    @Test func readerFallsBehind() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            let events = Array(String(repeating: Hostile.event("x"), count: 512).utf8)
            var sent = 0
            if c.write(events) { sent += events.count }
            usleep(200_000)
            while sent < 50 << 20, c.write(events) { sent += events.count }
        }
        defer { server.stop() }
        let client = Hostile.client(server, idle: 2, total: 30, limits: ChatLimits(maximumReadAheadBytes: 1 << 20))
        let start = Date()
        var chunks = 0
        var error: ChatClientError?
        do throws(ChatClientError) {
            _ = try await client.streamResponse(Hostile.request) { _ in
                chunks += 1
                usleep(5_000)
            }
        } catch let e {
            error = e
        }
        #expect(error == .readAheadExceeded(limit: 1 << 20))
        #expect(chunks > 0)
        #expect(Date().timeIntervalSince(start) < Self.bound)
    }

    // MARK: Broken framing

    /// swift-corelibs-foundation reports curl's framing errors as `URLError.unknown` with curl's message;
    /// the client passes both on (and does not retry: the failure is not known to be transient).
    @Test func contentLengthLongerThanBody() async throws {
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: application/json", "Content-Length: 10000"])
            c.write(Hostile.completion)
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .complete)
        guard case .transport(let code, let message)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(code == URLError.unknown.rawValue)
        #expect(message.contains("bytes remaining"), "\(message)")
        #expect(r.seconds < Self.bound)
    }

    @Test func contentLengthLongerThanStream() async throws {
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: text/event-stream", "Content-Length: 10000"])
            c.write(Hostile.event("a"))
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .stream)
        guard case .transport(let code, let message)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(code == URLError.unknown.rawValue)
        #expect(message.contains("bytes remaining"), "\(message)")
        #expect(r.chunks == 1)
        #expect(r.seconds < Self.bound)
    }

    @Test(arguments: Hostile.Mode.allCases)
    func brokenChunkedEncoding(_ mode: Hostile.Mode) async throws {
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: \(mode == .stream ? "text/event-stream" : "application/json")",
                              "Transfer-Encoding: chunked"])
            c.write("zz\r\nnot a chunk size\r\n")
            c.stallUntilClientCloses()
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), mode)
        guard case .transport(let code, let message)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(code == URLError.unknown.rawValue)
        #expect(message.contains("chunked"), "\(message)")
        #expect(await server.clientEndedEveryStall())
        #expect(r.seconds < Self.bound)
    }

    @Test func streamClosedMidJSON() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write(Hostile.event("a"))
            c.write(#"data: {"choices":[{"index":0,"#)
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .stream)
        #expect(r.error == .streamIncomplete(reason:
            "the stream ended after 1 event(s) with neither [DONE] nor a finish reason; its last event was cut off"))
        #expect(r.chunks == 1)
        #expect(r.seconds < Self.bound)
    }

    @Test func bodyClosedMidJSON() async throws {
        let cut = String(Hostile.completion.prefix(40))
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: application/json", "Connection: close"])
            c.write(cut)
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .complete)
        guard case .malformedResponse(let reason, let body)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(reason.hasPrefix("the body is not JSON"))
        #expect(body == cut)
        #expect(r.seconds < Self.bound)
    }

    // MARK: Content that is not what the protocol says

    @Test func invalidUTF8InAnEvent() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write(Array(#"data: {"choices":[{"index":0,"delta":{"content":""#.utf8) + [0xFF, 0xC3, 0x28]
                + Array(#""}}]}"#.utf8) + [0x0A, 0x0A])
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .stream)
        guard case .malformedResponse(let reason, _)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(reason == "event 1 is not valid UTF-8")
        #expect(r.chunks == 0)
    }

    @Test func invalidUTF8InABody() async throws {
        let body = Array(#"{"choices":[{"index":0,"message":{"content":""#.utf8) + [0xFF] + Array(#""}}]}"#.utf8)
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: application/json", "Content-Length: \(body.count)"])
            c.write(body)
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .complete)
        guard case .malformedResponse(let reason, _)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(reason.hasPrefix("the body is not JSON"))
        #expect(reason.contains("UTF-8"))
    }

    @Test func eventsWithoutData() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            for i in 0..<3 { c.write("event: message\nid: \(i)\n\n") }
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .stream)
        #expect(r.error == .streamIncomplete(reason: "the stream ended after 0 event(s) with neither [DONE] nor a finish reason"))
    }

    @Test func dataThatIsNotJSON() async throws {
        let server = try HostileServer { c in
            c.eventStreamHead()
            c.write("data: hello there\n\n")
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .stream)
        guard case .malformedResponse(let reason, let body)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(reason.hasPrefix("event 1 is not JSON"))
        #expect(body == "hello there")
    }

    static let html = "<!DOCTYPE html><html><body><h1>Sign in to the proxy</h1></body></html>"

    @Test func htmlInsteadOfJSON() async throws {
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: text/html; charset=utf-8", "Content-Length: \(Self.html.utf8.count)"])
            c.write(Self.html)
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server), .complete)
        guard case .malformedResponse(let reason, let body)? = r.error else { Issue.record("got \(String(describing: r.error))"); return }
        #expect(reason.hasPrefix("the body is not JSON"))
        #expect(body == Self.html)
    }

    /// An HTML page that never ends: refused at its head, not read until the deadline.
    @Test func htmlInsteadOfAStream() async throws {
        let server = try HostileServer { c in
            c.head("200 OK", ["Content-Type: text/html; charset=utf-8", "Connection: close"])
            while c.isOpen, c.write(Self.html) { c.pause(0.05) }
        }
        defer { server.stop() }
        let r = await Hostile.run(Hostile.client(server, idle: 0.5, total: 30), .stream)
        #expect(r.error == .malformedResponse(reason: "asked for a stream, got text/html; charset=utf-8", body: ""))
        #expect(r.seconds < Self.bound)
    }
}

