import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 (ephemeral port) that misbehaves on purpose: each test gives it a
/// script that writes whatever raw bytes its case needs, so the suite needs no Python.
///
/// Blocking sockets on background threads, one per connection, so a stalled answer never delays the
/// client's next attempt. It stops by itself: the listener closes after `lifetime` seconds (default 180, the suites' time limit; or at `stop()`),
/// every socket read and write times out after 5 s (a client that stopped reading cannot block a thread),
/// and `Connection.pause` and `Connection.isOpen` end early once the server stopped.
final class HostileServer: Sendable {
    /// One accepted connection whose request was read; what the script writes with.
    struct Connection: Sendable {
        let fd: Int32
        /// 1 for the first request the server saw, 2 for the second, …
        let attempt: Int
        let server: HostileServer

        /// Writes all of `bytes`; false once the peer is gone (or a write timed out).
        @discardableResult
        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }

        @discardableResult
        func write(_ text: String) -> Bool { write(Array(text.utf8)) }

        /// A response head: status line, the headers given, the blank line.
        @discardableResult
        func head(_ status: String = "200 OK", _ headers: [String] = []) -> Bool {
            write("HTTP/1.1 \(status)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
        }

        /// The head of an event stream delimited by closing the connection.
        @discardableResult
        func eventStreamHead() -> Bool {
            head("200 OK", ["Content-Type: text/event-stream", "Cache-Control: no-cache", "Connection: close"])
        }

        /// False once the server stopped or outlived its lifetime: loops in scripts test it.
        var isOpen: Bool { server.isRunning }

        /// Waits until the client closed its end (or `atMost` seconds), whether or not the server stopped;
        /// a close seen is counted in `clientCloses`.
        func awaitClientClose(atMost seconds: Double) {
            let end = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < end {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 {
                    server.noteClientClose()
                    return
                }
            }
        }

        /// Stalls: writes nothing until the client hangs up, for at most `Hostile.stall` seconds. A client
        /// that ends the call by its own timer is counted in `clientCloses`; one that waited for the
        /// server is not, whatever the scheduler did to either.
        func stallUntilClientCloses() { awaitClientClose(atMost: Hostile.stall) }

        /// Sleeps up to `seconds`, in steps of 20 ms, returning early once the server stopped.
        func pause(_ seconds: Double) {
            let end = Date().addingTimeInterval(seconds)
            while isOpen, Date() < end { usleep(20_000) }
        }
    }

    private struct State {
        var stopped = false
        var attemptTimes: [Date] = []
        var clientCloses = 0
    }

    let port: Int
    private let listener: Int32
    private let deadline: Date
    private let state = Mutex(State())
    private let script: @Sendable (Connection) -> Void

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    init(lifetime: Double = 180, script: @escaping @Sendable (Connection) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartFailure(description: "socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1 only
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw StartFailure(description: "bind/listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        deadline = Date().addingTimeInterval(lifetime)
        self.script = script
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

    /// When each request arrived, in order.
    var attemptTimes: [Date] { state.withLock { $0.attemptTimes } }
    var attempts: Int { state.withLock { $0.attemptTimes.count } }
    /// How many stalls (`Connection.stallUntilClientCloses`) the client ended by closing its end.
    var clientCloses: Int { state.withLock { $0.clientCloses } }

    fileprivate func noteClientClose() { state.withLock { $0.clientCloses += 1 } }

    /// Whether the client hung up on every stalled attempt. Waits for the server's threads to see the
    /// closes (the client may return its error before they do), at most `Hostile.stall` seconds.
    func clientEndedEveryStall() async -> Bool {
        let end = Date().addingTimeInterval(Hostile.stall)
        while Date() < end {
            if state.withLock({ $0.clientCloses >= $0.attemptTimes.count }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    var isRunning: Bool { !state.withLock { $0.stopped } && Date() < deadline }

    func stop() { state.withLock { $0.stopped = true } }

    private func acceptLoop() {
        defer { close(listener) }
        while isRunning {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard readRequest(fd) else { return }
        let attempt = state.withLock { s in
            s.attemptTimes.append(Date())
            return s.attemptTimes.count
        }
        script(Connection(fd: fd, attempt: attempt, server: self))
    }

    /// Reads the request head and its Content-Length body (at most 1 MiB); false if the client left first.
    private func readRequest(_ fd: Int32) -> Bool {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var bodyLength = 0
        while received.count < 1 << 20 {
            if let end = headEnd, received.count >= end + bodyLength { return true }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return false }
            received.append(contentsOf: buffer[0..<n])
            if headEnd == nil, let range = received.firstRange(of: separator) {
                headEnd = range.upperBound
                let head = String(decoding: received[..<range.lowerBound], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        return false
    }
}
