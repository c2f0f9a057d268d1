import Testing
@testable import GuidedTokenizers
import GuidedTestSupport

/// Exact token bytes on known ids: byte-level, byte fallback, metaspace and special tokens.
@Suite(.enabled(if: SharedData.present(for: "TokenBytesTests"))) struct TokenBytesTests {
    static func bytes(_ t: Tokenizer, _ id: Int) -> [UInt8] { Array(t.vocabulary.tokenBytes(id)) }

    @Test(arguments: ["qwen2.tiktoken", "qwen2.tokenizer.json"])
    func qwen2ByteLevelTokens(_ file: String) throws {
        let t = try LoadedTokenizers.named(file)
        #expect(t.vocabulary.tokenCount == 151_851)
        #expect(Self.bytes(t, 0) == Array("!".utf8))
        #expect(Self.bytes(t, 220) == [0x20])
        #expect(Self.bytes(t, 198) == [0x0A])
        #expect(Self.bytes(t, 9707) == Array("Hello".utf8))
        #expect(Self.bytes(t, 1879) == Array(" world".utf8))
        // Single bytes that are not UTF-8 on their own.
        #expect(Self.bytes(t, 160) == [0xE4])
        #expect(Self.bytes(t, 121) == [0xBD])
        #expect(Self.bytes(t, 254) == [0xA0])
        #expect(Self.bytes(t, 56568) == Array("你".utf8))
        #expect(Self.bytes(t, 151_643) == Array("<|endoftext|>".utf8))
        #expect(Self.bytes(t, 151_644) == Array("<|im_start|>".utf8))
        #expect(Self.bytes(t, 151_850) == Array("<|extra_204|>".utf8))
        #expect(t.vocabulary.isSpecial(151_643) && t.vocabulary.isSpecial(151_850))
        #expect(!t.vocabulary.isSpecial(9707))
        #expect(t.vocabulary.specialTokenIDs.count == 208)
        #expect(t.vocabulary.eosTokenIDs == [151_643, 151_645])
    }

    /// The tokenizer.json and the tiktoken file are the same vocabulary: every token's bytes agree.
    @Test func qwen2JSONMatchesTiktokenByteForByte() throws {
        let a = try LoadedTokenizers.qwen2.get().vocabulary
        let b = try LoadedTokenizers.qwen2JSON.get().vocabulary
        #expect(a.offsets == b.offsets)
        #expect(a.bytes == b.bytes)
        #expect(a.specialTokenIDs == b.specialTokenIDs)
    }

    @Test func qwen36SpecialTokens() throws {
        let t = try LoadedTokenizers.qwen36.get()
        #expect(t.vocabulary.tokenCount == 248_077)
        #expect(Self.bytes(t, 248_044) == Array("<|endoftext|>".utf8))
        #expect(Self.bytes(t, 248_046) == Array("<|im_end|>".utf8))
        #expect(Self.bytes(t, 248_068) == Array("<think>".utf8))
        #expect(Self.bytes(t, 248_076) == Array("<|audio_pad|>".utf8))
        #expect(t.vocabulary.eosTokenIDs == [248_044, 248_046])
        #expect(t.specialTokenID("</think>") == 248_069)
    }

    @Test(arguments: ["mistral-7b-v0.1.model", "mistral-7b-v0.1.tokenizer.json"])
    func mistralByteFallbackAndMetaspace(_ file: String) throws {
        let t = try LoadedTokenizers.named(file)
        #expect(t.vocabulary.tokenCount == 32_000)
        #expect(Self.bytes(t, 0) == Array("<unk>".utf8))
        #expect(Self.bytes(t, 1) == Array("<s>".utf8))
        #expect(Self.bytes(t, 2) == Array("</s>".utf8))
        #expect(t.vocabulary.specialTokenIDs == [0, 1, 2])
        #expect(t.vocabulary.eosTokenIDs == [2])
        // <0x00> ... <0xFF> are ids 3 ... 258.
        #expect(Self.bytes(t, 3) == [0x00])
        #expect(Self.bytes(t, 13) == [0x0A])
        #expect(Self.bytes(t, 258) == [0xFF])
        #expect(Self.bytes(t, 259) == [0x20, 0x20])
        #expect(Self.bytes(t, 22557) == Array(" Hello".utf8))
        #expect(Self.bytes(t, 28705) == [0x20])
    }

    @Test func mistralJSONMatchesModelByteForByte() throws {
        let a = try LoadedTokenizers.mistralModel.get().vocabulary
        let b = try LoadedTokenizers.mistralJSON.get().vocabulary
        #expect(a.offsets == b.offsets)
        #expect(a.bytes == b.bytes)
    }

    @Test func mistralV3ControlAndUserDefinedPieces() throws {
        let t = try LoadedTokenizers.mistralV3.get()
        #expect(t.vocabulary.tokenCount == 32_768)
        #expect(Self.bytes(t, 3) == Array("[INST]".utf8))
        #expect(t.vocabulary.isSpecial(3))
        // A user-defined piece is plain text, matched whole.
        let id = t.model.pieces.lookup(Array("[REFERENCE_DOC_0]".utf8))
        #expect(id >= 0)
        #expect(!t.vocabulary.isSpecial(Int(id)))
        #expect(try t.encode("a[REFERENCE_DOC_0]b").contains(Int(id)))
    }

    @Test func paddedVocabulary() throws {
        let t = try Tokenizer.load(path: SharedData.path("vocab/qwen2.tiktoken"), preset: .qwen2,
                                   vocabularySize: TiktokenPreset.qwen2.modelVocabularySize)
        #expect(t.vocabulary.size == 151_936)
        #expect(t.vocabulary.tokenCount == 151_851)
        #expect(t.vocabulary.tokenBytes(151_900).isEmpty)
        #expect(t.vocabulary.tokenBytes(151_935).isEmpty)
        #expect(t.decode([9707, 151_900]) == Array("Hello".utf8))
        let padded = try LoadedTokenizers.mistralModel.get().padded(to: 32_768)
        #expect(padded.vocabulary.size == 32_768)
        #expect(padded.vocabulary.tokenCount == 32_000)
    }

    @Test func paddingBelowTheTokenCountIsRefused() {
        #expect(throws: TokenizerError.self) {
            try Tokenizer.load(path: SharedData.path("vocab/mistral-7b-v0.1.model"), vocabularySize: 31_999)
        }
    }
}
