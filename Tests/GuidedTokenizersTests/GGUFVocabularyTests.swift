import Foundation
import Testing
@testable import GuidedTokenizers
import GuidedTestSupport

/// A GGUF file's own vocabulary gives exactly the tokenizer of the file it was converted from: the same
/// token bytes id by id, the same special and EOS ids, the same ids on all 530 shared fixtures.
@Suite struct GGUFVocabularyTests {
    static let pairs: [(gguf: String, reference: String)] = [("qwen2", "qwen2.tokenizer.json"),
                                                             ("mistral", "mistral-7b-v0.1.model")]

    static func gguf(_ name: String) throws -> Tokenizer {
        let path = try (name == "qwen2" ? SharedVocabularyGGUF.qwen2 : SharedVocabularyGGUF.mistral).get()
        return try Tokenizer.load(path: path)
    }

    /// False when ../shared is absent, saying so once per run.
    static let sharedData: Bool = {
        if SharedVocabularyGGUF.sharedDataPresent { return true }
        print("GGUFVocabularyTests: skipped, no shared vocabularies at \(SharedData.path("vocab"))")
        return false
    }()

    static func haveSharedData() -> Bool { sharedData }

    @Test(arguments: ["qwen2", "mistral"])
    func sameTokensAsTheSourceFile(_ name: String) throws {
        guard Self.haveSharedData() else { return }
        let tokenizer = try Self.gguf(name)
        let reference = try LoadedTokenizers.named(Self.pairs.first { $0.gguf == name }!.reference)
        #expect(tokenizer.format == .gguf)
        let v = tokenizer.vocabulary, r = reference.vocabulary
        #expect(v.tokenCount == r.tokenCount)
        #expect(v.tokenCount == (name == "qwen2" ? 151_851 : 32_000))
        #expect(v.offsets == r.offsets)
        #expect(v.bytes == r.bytes)
        #expect(v.specialTokenIDs == r.specialTokenIDs)
        #expect(v.eosTokenIDs == r.eosTokenIDs)
        #expect(tokenizer.specialTokenIDs == reference.specialTokenIDs)
    }

    @Test(arguments: ["qwen2", "mistral"])
    func encodesFixturesLikeTheSourceFile(_ name: String) throws {
        guard Self.haveSharedData() else { return }
        let tokenizer = try Self.gguf(name)
        let key = name == "qwen2" ? "qwen2" : "mistral-7b-v0.1"
        #expect(LoadedTokenizers.fixtures.count == 530)
        let encoder = tokenizer.makeEncoder()
        var mismatches: [String] = []
        for f in LoadedTokenizers.fixtures {
            let ids = try encoder.encode(f.text)
            if ids != f.ids[key] { mismatches.append(f.text) }
            if tokenizer.decode(ids) != Array(f.text.utf8) { mismatches.append("decode: " + f.text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.first.map { $0.debugDescription } ?? "")")
    }

    @Test func specialTokensOnRequest() throws {
        guard Self.haveSharedData() else { return }
        let qwen = try Self.gguf("qwen2")
        let hi = try LoadedTokenizers.named("qwen2.tokenizer.json").encode("hi")
        #expect(hi.count == 1)
        #expect(try qwen.encode("<|im_start|>hi", recognizeSpecialTokens: true) == [151_644] + hi)
        #expect(try qwen.encode("<|im_start|>", recognizeSpecialTokens: false).count > 1)
        #expect(qwen.vocabulary.eosTokenIDs == [151_643, 151_645])
        let mistral = try Self.gguf("mistral")
        #expect(mistral.vocabulary.eosTokenIDs == [2])
        #expect(try mistral.encode("</s>", recognizeSpecialTokens: true) == [2])
    }
}
