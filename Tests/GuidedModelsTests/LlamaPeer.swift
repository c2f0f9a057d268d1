import Foundation
import GuidedSchema
import Testing
import GuidedTestSupport

/// The real llama-cpp-python peer (Peers/llama_peer.py): llama-cpp-python's own OpenAI-compatible server
/// with the tiny model of Peers/make_tiny_gguf.py, and two proxies in front of it (Peers/llama_proxy.py):
/// `strip` deletes `response_format` (a lenient server), `jsonMode` downgrades it to `{type: json_object}`.
/// One child process per test run, on 127.0.0.1 with OS-assigned ports, started on first use; it exits
/// with this process.
///
/// It runs in the Python of the venv that Peers/setup_llama_peer.sh installs (`.ci/run` calls it):
/// `$GUIDED_LLAMA_PYTHON`, else `$GUIDED_PEER_CACHE/venv/bin/python` (cache default
/// /var/cache/guided-decoding). When that (or ../shared, for the vocabulary) is missing the suite is
/// skipped with one line saying how to install it, unless `GUIDED_REQUIRE_PEERS=1` (`.ci/run`): then
/// the tests run and fail, saying the same. GUIDED_SKIP_LLAMA_PEER=1 skips them in any case.
final class LlamaPeer: Sendable {
    enum Endpoint: Sendable { case server, strip, jsonMode }

    let process: PeerProcess
    let serverPort: Int
    let stripPort: Int
    let jsonModePort: Int
    /// The llama-cpp-python version serving.
    let version: String

    static var skipped: Bool { ProcessInfo.processInfo.environment["GUIDED_SKIP_LLAMA_PEER"] == "1" }

    /// What the peer needs and this machine lacks, empty when it can start.
    static var missing: [String] {
        var missing: [String] = []
        if !FileManager.default.isExecutableFile(atPath: python) { missing.append("no \(python)") }
        if !SharedData.available { missing.append("no \(SharedData.root.path)") }
        return missing
    }

    /// Whether the peer suite runs; when it does not because the peer is missing, says so once.
    static let runs: Bool = {
        if skipped { return false }
        let missing = LlamaPeer.missing
        if missing.isEmpty || PeerRequirement.required { return true }
        PeerRequirement.notice("llama peer: not installed (\(missing.joined(separator: ", "))); skipping the suite "
            + "\"llama-cpp-python peer\": run Tests/GuidedModelsTests/Peers/setup_llama_peer.sh to enable it "
            + "(GUIDED_REQUIRE_PEERS=1, as .ci/run sets, turns the skip into failures)")
        return false
    }()

    static var cache: String { ProcessInfo.processInfo.environment["GUIDED_PEER_CACHE"] ?? "/var/cache/guided-decoding" }

    static var python: String { ProcessInfo.processInfo.environment["GUIDED_LLAMA_PYTHON"] ?? cache + "/venv/bin/python" }

    static let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers")

    /// Where the tiny model is cached: beside the venv when that is writable, else in the temporary directory.
    static var modelDirectory: String {
        FileManager.default.isWritableFile(atPath: cache) ? cache + "/models"
            : FileManager.default.temporaryDirectory.appendingPathComponent("guided-decoding-models").path
    }

    struct NotInstalled: Error, CustomStringConvertible {
        var detail: String
        var description: String {
            "the llama-cpp-python peer is not installed (\(detail)): run Tests/GuidedModelsTests/Peers/setup_llama_peer.sh "
                + "(.ci/run does; this fails rather than skips because GUIDED_REQUIRE_PEERS=1), or set GUIDED_SKIP_LLAMA_PEER=1 to skip these tests"
        }
    }

    private actor Registry {
        var starting: Task<LlamaPeer, any Error>?
        func shared() async throws -> LlamaPeer {
            if let starting { return try await starting.value }
            let task = Task { try await LlamaPeer.start() }
            starting = task
            return try await task.value
        }
    }
    private static let registry = Registry()

    static func shared() async throws -> LlamaPeer { try await registry.shared() }

    private init(process: PeerProcess, serverPort: Int, stripPort: Int, jsonModePort: Int, version: String) {
        self.process = process
        self.serverPort = serverPort
        self.stripPort = stripPort
        self.jsonModePort = jsonModePort
        self.version = version
    }

    private static func start() async throws -> LlamaPeer {
        guard FileManager.default.isExecutableFile(atPath: python) else { throw NotInstalled(detail: "no \(python)") }
        let process: PeerProcess
        do {
            // Writing the model (first run only) and loading it take a few seconds; allow for a loaded machine.
            process = try await PeerProcess.launch(
                name: "llama-peer", executable: python,
                arguments: [peers.appendingPathComponent("llama_peer.py").path,
                            "--vocab", SharedData.path("vocab/qwen2.tokenizer.json"), "--model-dir", modelDirectory],
                seconds: 180)
        } catch let e as PeerProcess.DidNotStart where e.description.contains("exited with status 3") {
            throw NotInstalled(detail: e.description)
        }
        let info = try JSONParser.parse(bytes: Array(process.portFileText.utf8))
        guard let server = info["server"]?.numberValue?.intValue, let strip = info["strip"]?.numberValue?.intValue,
              let jsonMode = info["jsonmode"]?.numberValue?.intValue, let version = info["llama_cpp_python"]?.stringValue
        else { throw PeerProcess.DidNotStart(description: "llama-peer wrote an unexpected port file: \(process.portFileText)") }
        return LlamaPeer(process: process, serverPort: server, stripPort: strip, jsonModePort: jsonMode, version: version)
    }

    /// The OpenAI-style base URL (`…/v1`) of the server or of a proxy.
    func baseURL(_ endpoint: Endpoint) throws -> URL {
        let port: Int
        switch endpoint {
        case .server: port = serverPort
        case .strip: port = stripPort
        case .jsonMode: port = jsonModePort
        }
        return try #require(URL(string: "http://127.0.0.1:\(port)/v1"))
    }
}
