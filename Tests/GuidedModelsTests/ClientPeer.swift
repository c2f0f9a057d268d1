import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GuidedSchema
import Testing

/// The loopback test peer (Peers/sse_peer.py): one child process per test run, on 127.0.0.1 with an
/// OS-assigned port, started on first use. It exits when this process exits (it watches its parent) or
/// after ten minutes, whichever comes first. Tests keep apart by tagging their requests with their own
/// `X-Test-Id` (see `PeerSession`).
final class ClientPeer: Sendable {
    let process: PeerProcess
    let port: Int
    var directory: URL { process.directory }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Peers/sse_peer.py")

    /// Starts the peer once: concurrent first callers share one start (an actor alone would let each of
    /// them start a process while the first is suspended).
    private actor Registry {
        var starting: Task<ClientPeer, any Error>?
        func shared() async throws -> ClientPeer {
            if let starting { return try await starting.value }
            let task = Task { try await ClientPeer.start() }
            starting = task
            return try await task.value
        }
    }
    private static let registry = Registry()

    /// A session on the shared peer, with a fresh test id.
    static func session() async throws -> PeerSession {
        PeerSession(peer: try await registry.shared(), testID: UUID().uuidString)
    }

    private init(process: PeerProcess, port: Int) {
        self.process = process
        self.port = port
    }

    private static func start() async throws -> ClientPeer {
        let process = try await PeerProcess.launch(name: "guided-peer", executable: "/usr/bin/env",
                                                   arguments: ["python3", script.path], seconds: 45)
        guard let port = process.port else {
            throw PeerProcess.DidNotStart(description: "the loopback peer wrote `\(process.portFileText)`, not a port")
        }
        return ClientPeer(process: process, port: port)
    }
}

/// One test's view of the peer: its requests carry `X-Test-Id`, and only they are reported back.
struct PeerSession: Sendable {
    let peer: ClientPeer
    let testID: String

    var port: Int { peer.port }

    func baseURL(_ scenario: String) throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(peer.port)/\(scenario)"))
    }

    var headers: [String: String] { ["X-Test-Id": testID] }

    /// A fresh path for a signal file the peer waits for (or writes).
    func signalPath() -> String { peer.directory.appendingPathComponent("signal-\(UUID().uuidString)").path }

    /// This test's requests as the peer recorded them (path, lower-cased headers, body text).
    func recordedRequests() async throws -> [JSONValue] {
        try await get("__requests?id=\(testID)").arrayValue ?? []
    }

    /// A port on 127.0.0.1 that nothing listens on.
    func closedPort() async throws -> Int {
        try #require(try await get("__closed_port")["port"]?.numberValue?.intValue)
    }

    private func get(_ path: String) async throws -> JSONValue {
        let url = try #require(URL(string: "http://127.0.0.1:\(peer.port)/\(path)"))
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONParser.parse(bytes: Array(data))
    }
}

/// Waits for a file to appear, polling, up to `seconds`.
func waitForFile(_ path: String, seconds: Double) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if FileManager.default.fileExists(atPath: path) { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return false
}
