#if Llama
import Foundation
import Testing

/// `guided-conformance demo --backend llama --model FILE` end to end: the built binary (beside the test
/// bundle) on the tiny model. The mask makes every value a valid `DemoRecipe`; without it the model writes
/// its own `{"answer": "Beijing"}"}"}…`, which no recipe schema accepts.
@Suite("guided-conformance demo --backend llama", .enabled(if: LlamaFixtures.runs("guided-conformance demo --backend llama")))
struct LlamaDemoTests {
    /// The build folder: the products lie beside the test bundle.
    static let buildDirectory: URL = {
        var dir = Bundle.main.bundleURL
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("guided-conformance").path) {
            dir.deleteLastPathComponent()
        }
        return dir
    }()

    @Test func demoOverTheTinyModel() throws {
        let model = try LlamaFixtures.qwen2Path.get()
        let process = Process()
        process.executableURL = Self.buildDirectory.appendingPathComponent("guided-conformance")
        process.arguments = ["demo", "--backend", "llama", "--model", model, "--count", "2", "--seed", "1", "--max-tokens", "96"]
        process.currentDirectoryURL = LlamaFixtures.projectRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("llama.cpp backend: \(model) (llama, 151851 tokens, context 2048, 1 thread)") == true)
        #expect(lines.last == "demo: 2 values of DemoRecipe, with mask 2/2 valid (0 incomplete), without mask 0/2 valid")
    }
}
#endif
