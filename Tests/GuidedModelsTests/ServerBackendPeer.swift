import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GuidedSchema
import Testing

/// The fake chat servers of Peers/lenient_peer.py (strict / lenient / jsonmode / abort / fixable / fenced,
/// picked by the first path segment): one child process per test run on 127.0.0.1, started on first use,
/// gone when this process exits (it watches its parent) or after ten minutes.
final class ServerPeer: @unchecked Sendable {  // immutable after start; `Process` is not Sendable but only read
    let directory: URL
    let port: Int
    private let process: Process

    struct DidNotStart: Error, CustomStringConvertible {
        var description: String { "the lenient peer did not report a port within 15 s" }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Peers/lenient_peer.py")
    /// The probe battery of the repository.
    static let probes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpora/probes")

    private actor Registry {
        var starting: Task<ServerPeer, any Error>?
        func shared() async throws -> ServerPeer {
            if let starting { return try await starting.value }
            let task = Task { try await ServerPeer.start() }
            starting = task
            return try await task.value
        }
    }
    private static let registry = Registry()

    static func shared() async throws -> ServerPeer { try await registry.shared() }

    private init(directory: URL, port: Int, process: Process) {
        self.directory = directory
        self.port = port
        self.process = process
    }

    private static func start() async throws -> ServerPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lenient-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let portFile = directory.appendingPathComponent("port")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--port-file", portFile.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<750 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                return ServerPeer(directory: directory, port: port, process: process)
            }
            if !process.isRunning { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        if process.isRunning { process.terminate() }
        throw DidNotStart()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }

    func baseURL(_ mode: String) throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(port)/\(mode)"))
    }

    /// The requests tagged `testID`, once the peer has finished answering them (waits up to 10 s).
    func log(_ testID: String, expecting count: Int) async throws -> [JSONValue] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let entries = try await get("__log?id=\(testID)").arrayValue ?? []
            let finished = entries.filter { $0["finished"] == .bool(true) }
            if finished.count >= count || Date() > deadline { return entries }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// A port on 127.0.0.1 that nothing listens on.
    func closedPort() async throws -> Int {
        try #require(try await get("__closed_port")["port"]?.numberValue?.intValue)
    }

    private func get(_ path: String) async throws -> JSONValue {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/\(path)")))
        request.timeoutInterval = 10
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONParser.parse(bytes: Array(data))
    }
}
