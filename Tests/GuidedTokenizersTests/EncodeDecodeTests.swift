import Testing
@testable import GuidedTokenizers
import GuidedTestSupport

@Suite(.enabled(if: SharedData.present(for: "EncodeDecodeTests"))) struct EncodeDecodeTests {
    @Test func specialTokensArePlainTextByDefault() throws {
        let t = try LoadedTokenizers.qwen2.get()
        let plain = try t.encode("<|im_start|>user")
        #expect(!plain.contains(151_644))
        #expect(try t.encode("<|im_start|>user", recognizeSpecialTokens: true) == [151_644, 872])
        #expect(try t.encode("a<|im_end|><|endoftext|>", recognizeSpecialTokens: true) == [64, 151_645, 151_643])
    }

    @Test func sentencePieceControlTokensOnRequest() throws {
        let t = try LoadedTokenizers.mistralModel.get()
        #expect(!(try t.encode("</s>")).contains(2))
        #expect(try t.encode("Hello</s>", recognizeSpecialTokens: true) == [22557, 2])
        #expect(try t.encode("Hello world") == [22557, 1526])
        #expect(try t.encode("") == [])
        #expect(try t.encode("\n") == [28705, 13])
    }

    @Test func decodeCanSkipSpecialTokens() throws {
        let t = try LoadedTokenizers.qwen2.get()
        #expect(t.decodeText([151_644, 9707, 151_645]) == "<|im_start|>Hello<|im_end|>")
        #expect(t.decodeText([151_644, 9707, 151_645], skipSpecialTokens: true) == "Hello")
    }

    @Test func sentencePieceDecodeDropsTheDummyPrefix() throws {
        let t = try LoadedTokenizers.mistralModel.get()
        #expect(t.decodeText([22557, 1526]) == "Hello world")
        #expect(t.decode([22557], stripDummyPrefix: false) == Array(" Hello".utf8))
    }

    /// A JSON text encoded as a continuation: its tokens spell exactly its bytes (no dummy prefix), with
    /// SentencePiece and with a `tokenizer.json` Metaspace, and Qwen2's encoding is unchanged.
    @Test(arguments: ["mistral-7b-v0.1.model", "mistral-7b-v0.1.tokenizer.json", "qwen2.tiktoken"])
    func continuationsSpellExactlyTheirText(_ name: String) throws {
        let t = try LoadedTokenizers.named(name)
        let encoder = t.makeEncoder()
        for text in [#"{"a": 1, "b": [true, null]}"#, "Hello world", " leading space", "\n{\"x\": \"é\"}"] {
            let ids = try encoder.encodeContinuation(text)
            #expect(t.decode(ids, stripDummyPrefix: false) == Array(text.utf8), "\(name): \(text)")
        }
        if name == "qwen2.tiktoken" { #expect(try encoder.encodeContinuation("Hello world") == (try encoder.encode("Hello world"))) }
        else { #expect(try encoder.encodeContinuation("Hello world") != (try encoder.encode("Hello world"))) }
    }

    @Test func streamingDecoderHoldsIncompleteUTF8() throws {
        let t = try LoadedTokenizers.qwen2.get()
        var d = t.makeStreamingDecoder()
        // 你 = E4 BD A0, as three single-byte tokens.
        #expect(d.push(160) == "")
        #expect(d.push(121) == "")
        #expect(d.push(254) == "你")
        #expect(d.push(9707) == "Hello")
        #expect(d.push(160) == "")
        #expect(d.finish() == "\u{FFFD}")
    }

    @Test func streamingDecoderWithByteFallback() throws {
        let t = try LoadedTokenizers.mistralModel.get()
        let ids = try t.encode("日本 🎉")
        var d = t.makeStreamingDecoder()
        var text = ""
        for id in ids { text += d.push(id) }
        text += d.finish()
        #expect(text == "日本 🎉")
    }

    @Test func utf8BoundaryOfPartialSequences() {
        #expect(UTF8Boundary.completePrefixLength([0x61, 0xE4, 0xBD]) == 1)
        #expect(UTF8Boundary.completePrefixLength([0x61, 0xE4, 0xBD, 0xA0]) == 4)
        #expect(UTF8Boundary.completePrefixLength([0xF0, 0x9F, 0x8E]) == 0)
        #expect(UTF8Boundary.completePrefixLength([0x80]) == 1)
        #expect(UTF8Boundary.completePrefixLength([0x61, 0xFF]) == 2)
    }

    @Test func longWordsInTiktoken() throws {
        // A long run without a whole-word token exercises the heap path of byte-level BPE.
        let t = try LoadedTokenizers.qwen2.get()
        let text = String(repeating: "你好世界", count: 40) + String(repeating: "ab", count: 100)
        let ids = try t.encode(text)
        #expect(t.decodeText(ids) == text)
    }
}

@Suite(.enabled(if: SharedData.present(for: "LoadOptionTests"))) struct LoadOptionTests {
    @Test func eosOverrideForSentencePiece() throws {
        let path = SharedData.path("vocab/mistral-7b-v0.1.model")
        let t = try Tokenizer.load(path: path, eosTokens: ["</s>", "<s>"])
        #expect(t.vocabulary.eosTokenIDs == [2, 1])
        #expect(throws: TokenizerError.self) { try Tokenizer.load(path: path, eosTokens: ["nope"]) }
        #expect(throws: TokenizerError.self) { try Tokenizer.load(path: path, preset: .qwen2) }
    }
}
