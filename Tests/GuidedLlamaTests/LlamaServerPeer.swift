#if Llama
import Foundation
import GuidedDecoding

/// llama.cpp's own `llama-server` (the build of scripts/setup-llama.sh) serving the tiny Qwen2-vocabulary
/// model as `tiny`, started by Peers/llama_server_peer.py on 127.0.0.1 with an OS-assigned port on first
/// use, once per test process; it exits with this process.
final class LlamaServerPeer: @unchecked Sendable {  // immutable after start; `Process` is only read
    let port: Int
    private let process: Process
    private let directory: URL

    struct DidNotStart: Error, CustomStringConvertible { var description: String }

    private init(port: Int, process: Process, directory: URL) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

    private actor Registry {
        var starting: Task<LlamaServerPeer, any Error>?
        func shared() async throws -> LlamaServerPeer {
            if let starting { return try await starting.value }
            let task = Task { try await LlamaServerPeer.start() }
            starting = task
            return try await task.value
        }
    }
    private static let registry = Registry()

    static func shared() async throws -> LlamaServerPeer { try await registry.shared() }

    /// Starts the wrapper and waits (up to 120 s: loading the model and a busy machine) for its port file.
    private static func start() async throws -> LlamaServerPeer {
        let model = try LlamaFixtures.qwen2Path.get()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("llama-server-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let portFile = directory.appendingPathComponent("port"), log = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: LlamaFixtures.python)
        process.arguments = [LlamaFixtures.projectRoot.appendingPathComponent("Tests/GuidedLlamaTests/Peers/llama_server_peer.py").path,
                             "--server", LlamaFixtures.server, "--model", model, "--port-file", portFile.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && process.isRunning {
            if let text = try? String(contentsOf: portFile, encoding: .utf8),
               let port = try JSONParser.parse(text)["port"]?.numberValue?.intValue {
                return LlamaServerPeer(port: port, process: process, directory: directory)
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        if process.isRunning { process.terminate() }
        let tail = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(15).joined(separator: "\n")
        try? FileManager.default.removeItem(at: directory)
        throw DidNotStart(description: "llama-server peer did not report its port; its log ends:\n\(tail)")
    }
}
#endif
