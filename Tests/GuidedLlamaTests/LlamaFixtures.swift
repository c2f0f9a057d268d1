#if Llama
import Foundation
import GuidedLlama
import Synchronization

/// What the GuidedLlama tests need beyond the llama.cpp library they are linked with: the shared data
/// (../shared: vocabularies, fixtures, maskbench-dev), the Python of the llama-cpp-python peer's venv
/// (it writes the test models with the `gguf` package and computes the reference logits), and for the
/// server suite the `llama-server` of the same build.
///
/// The models are written by Tests/GuidedModelsTests/Peers/make_tiny_gguf.py into the model cache
/// (`$GUIDED_PEER_CACHE/models`, default /var/cache/guided-decoding/models), once per version of that
/// script and of the vocabulary. When something is missing the suites are skipped with one line saying
/// what and how to get it, unless GUIDED_REQUIRE_PEERS=1 (`.ci/run`): then they run and fail.
enum LlamaFixtures {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var required: Bool { environment["GUIDED_REQUIRE_PEERS"] == "1" }

    static var shared: URL {
        environment["GUIDED_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }
    static func sharedPath(_ relative: String) -> String { shared.appendingPathComponent(relative).path }

    static var cache: String { environment["GUIDED_PEER_CACHE"] ?? "/var/cache/guided-decoding" }
    static var python: String { environment["GUIDED_LLAMA_PYTHON"] ?? cache + "/venv/bin/python" }
    static let writer = projectRoot.appendingPathComponent("Tests/GuidedModelsTests/Peers/make_tiny_gguf.py").path

    /// The install prefix of scripts/setup-llama.sh: `$GUIDED_LLAMA_PREFIX`, else the default the script
    /// derives from the commit it pins (read from the script, so the two cannot drift apart).
    static var prefix: String {
        if let p = environment["GUIDED_LLAMA_PREFIX"] { return p }
        let script = (try? String(contentsOf: projectRoot.appendingPathComponent("scripts/setup-llama.sh"), encoding: .utf8)) ?? ""
        let commit = script.split(separator: "\n").first { $0.hasPrefix("LLAMA_CPP_COMMIT=") }.map { $0.dropFirst(17) } ?? ""
        return cache + "/llama.cpp-" + commit.prefix(12)
    }
    static var server: String { prefix + "/bin/llama-server" }

    static var modelDirectory: String {
        FileManager.default.isWritableFile(atPath: cache) ? cache + "/models"
            : FileManager.default.temporaryDirectory.appendingPathComponent("guided-decoding-models").path
    }

    /// What the suites need and this machine lacks.
    static func missing(server needsServer: Bool = false) -> [String] {
        var missing: [String] = []
        if !FileManager.default.fileExists(atPath: shared.path) { missing.append("no \(shared.path)") }
        if !FileManager.default.isExecutableFile(atPath: python) { missing.append("no \(python)") }
        if needsServer && !FileManager.default.isExecutableFile(atPath: server) { missing.append("no \(server)") }
        return missing
    }

    private static let announced = Mutex<Set<String>>([])

    /// For `.enabled(if:)`: true when everything is there or it is required; else one line on stderr per suite.
    static func runs(_ suite: String, server: Bool = false) -> Bool {
        let missing = missing(server: server)
        if missing.isEmpty || required { return true }
        if announced.withLock({ $0.insert(suite).inserted }) {
            FileHandle.standardError.write(Data(("llama fixtures: \(missing.joined(separator: ", ")); skipping the suite "
                + "\"\(suite)\": run scripts/setup-llama.sh and Tests/GuidedModelsTests/Peers/setup_llama_peer.sh to enable it "
                + "(GUIDED_REQUIRE_PEERS=1, as .ci/run sets, turns the skip into failures)\n").utf8))
        }
        return false
    }

    struct ToolFailed: Error, CustomStringConvertible { var description: String }

    /// Runs the venv's Python with `arguments`; returns its standard output.
    static func runPython(_ arguments: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ToolFailed(description: "no \(python): run Tests/GuidedModelsTests/Peers/setup_llama_peer.sh")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailed(description: "\(python) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
                + String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The path of a test model, written on first use: `make_tiny_gguf.py --vocab VOCAB --cache-dir … EXTRA`.
    static func model(vocab: String, _ extra: [String] = []) throws -> String {
        let output = try runPython([writer, "--vocab", sharedPath("vocab/" + vocab), "--cache-dir", modelDirectory] + extra)
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The tiny Qwen2-vocabulary model of the peers (bigram-shaped, llama architecture).
    static let qwen2Path = Result { try model(vocab: "qwen2.tokenizer.json") }
    /// The same shape with Mistral 7B v0.1's SentencePiece vocabulary.
    static let mistralPath = Result { try model(vocab: "mistral-7b-v0.1.model") }
    /// The tiny model under an architecture name llama.cpp does not know.
    static let unknownArchitecturePath = Result { try model(vocab: "qwen2.tokenizer.json", ["--arch", "guided-unknown"]) }

    static let qwen2 = Result { () throws -> LlamaModel in try LlamaModel(path: try qwen2Path.get()) }
    static let mistral = Result { () throws -> LlamaModel in try LlamaModel(path: try mistralPath.get()) }
}
#endif
