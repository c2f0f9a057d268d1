import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GuidedSchema
import Testing

/// The loopback test peer (Peers/sse_peer.py) as a child process on 127.0.0.1 with an OS-assigned port.
/// It is stopped by `stop()`, and exits by itself after its lifetime or when this process dies.
final class ClientPeer {
    enum Failure: Error, CustomStringConvertible {
        case didNotStart(String)
        var description: String { if case .didNotStart(let s) = self { return s }; return "" }
    }

    let process = Process()
    let directory: URL
    private(set) var port = 0

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Peers/sse_peer.py")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("guided-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let portFile = directory.appendingPathComponent("port")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", ClientPeer.script.path, "--port-file", portFile.path, "--lifetime", "90"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let p = Int(text) {
                port = p
                return
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop()
        throw Failure.didNotStart("the loopback peer did not report a port within 10 s")
    }

    func baseURL(_ scenario: String) throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(port)/\(scenario)"))
    }

    /// A fresh path for a signal file the peer waits for (or writes).
    func signalPath() -> String { directory.appendingPathComponent("signal-\(UUID().uuidString)").path }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The requests the peer recorded (path, lower-cased headers, body text).
    func recordedRequests() async throws -> [JSONValue] {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/__requests"))
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONParser.parse(bytes: Array(data)).arrayValue ?? []
    }

    deinit { stop() }
}

/// Waits for a file to appear, polling, up to `seconds`.
func waitForFile(_ path: String, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if FileManager.default.fileExists(atPath: path) { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return false
}
