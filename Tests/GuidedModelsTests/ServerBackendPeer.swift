import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GuidedSchema
import Testing

/// The fake chat servers of Peers/lenient_peer.py (strict / lenient / jsonmode / abort / fixable / fenced,
/// picked by the first path segment): one child process per test run on 127.0.0.1, started on first use,
/// gone when this process exits (it watches its parent) or after ten minutes.
final class ServerPeer: Sendable {
    let process: PeerProcess
    let port: Int
    var directory: URL { process.directory }

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

    private init(process: PeerProcess, port: Int) {
        self.process = process
        self.port = port
    }

    private static func start() async throws -> ServerPeer {
        let process = try await PeerProcess.launch(name: "lenient-peer", executable: "/usr/bin/env",
                                                   arguments: ["python3", script.path], seconds: 45)
        guard let port = process.port else {
            throw PeerProcess.DidNotStart(description: "the lenient peer wrote `\(process.portFileText)`, not a port")
        }
        return ServerPeer(process: process, port: port)
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
