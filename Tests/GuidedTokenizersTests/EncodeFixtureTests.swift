import Testing
@testable import GuidedTokenizers
import GuidedTestSupport

/// The shared reference fixtures: exact ids and decode round trips, for every supported vocabulary file.
@Suite(.enabled(if: SharedData.present(for: "EncodeFixtureTests"))) struct EncodeFixtureTests {
    static let files = ["qwen2.tiktoken", "qwen2.tokenizer.json", "qwen3.6.tiktoken",
                        "mistral-7b-v0.1.model", "mistral-7b-v0.1.tokenizer.json"]

    @Test func fixturesArePresent() {
        #expect(LoadedTokenizers.fixtures.count == 530)
    }

    @Test(arguments: files)
    func encodesFixturesExactly(_ file: String) throws {
        let tokenizer = try LoadedTokenizers.named(file)
        let key = LoadedTokenizers.key(file)
        let encoder = tokenizer.makeEncoder()
        var mismatches: [String] = []
        for f in LoadedTokenizers.fixtures where try encoder.encode(f.text) != f.ids[key] {
            mismatches.append(f.text)
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.first.map { $0.debugDescription } ?? "")")
    }

    @Test(arguments: files)
    func decodeInvertsEncode(_ file: String) throws {
        let tokenizer = try LoadedTokenizers.named(file)
        let encoder = tokenizer.makeEncoder()
        for f in LoadedTokenizers.fixtures {
            let ids = try encoder.encode(f.text)
            #expect(tokenizer.decodeText(ids) == f.text)
            #expect(tokenizer.decode(ids) == Array(f.text.utf8))
        }
    }

    /// The flat scan (short words) and the heap (long words) must agree: force every word through the heap.
    @Test(arguments: ["qwen2.tiktoken", "mistral-7b-v0.1.model", "mistral-7b-v0.1.tokenizer.json"])
    func heapPathMatchesFlatPath(_ file: String) throws {
        var tokenizer = try LoadedTokenizers.named(file)
        tokenizer.forceHeapMerging()
        let key = LoadedTokenizers.key(file)
        let encoder = tokenizer.makeEncoder()
        for f in LoadedTokenizers.fixtures.prefix(200) {
            #expect(try encoder.encode(f.text) == f.ids[key], "\(f.text.debugDescription)")
        }
    }
}
