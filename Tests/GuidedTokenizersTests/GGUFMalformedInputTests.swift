import Foundation
import Testing
@testable import GuidedTokenizers

/// Every malformed GGUF is an exact `TokenizerError.Problem`, with the byte offset of the bad field where
/// there is one; nothing traps and no count read from the file is allocated before it is checked.
@Suite struct GGUFMalformedInputTests {
    typealias W = GGUFTestWriter

    /// A complete tiny byte-level vocabulary: the 256 bytes (ids = byte values), "Ġh" 256, "Ġhi" 257, a control
    /// token 258 and a user-defined token 259.
    static func tinyGPT2() -> W {
        var tokens: [[UInt8]] = (0..<256).map { b in
            Array(String(Character(Unicode.Scalar(ByteLevelAlphabet.characterForByte[b])!)).utf8)
        }
        tokens += [Array("Ġh".utf8), Array("Ġhi".utf8), Array("<|end|>".utf8), Array("<u>".utf8)]
        var w = W()
        w.set("tokenizer.ggml.model", .string("gpt2"))
        w.set("tokenizer.ggml.pre", .string("gpt-2"))
        w.set("tokenizer.ggml.tokens", .strings(tokens))
        w.set("tokenizer.ggml.token_type", .int32s([Int32](repeating: 1, count: 258) + [3, 4]))
        w.set("tokenizer.ggml.merges", .strings([Array("Ġ h".utf8), Array("Ġh i".utf8)]))
        w.set("tokenizer.ggml.eos_token_id", .uint32(258))
        w.tensors = [.init(name: "t", dimensions: [4], type: 0, offset: 0)]
        return w
    }

    /// The problem of loading `bytes` (nil, with an issue recorded, when it loads).
    static func problem(_ bytes: [UInt8]) -> TokenizerError.Problem? {
        switch load(bytes) {
        case .success:
            Issue.record("loaded but should not")
            return nil
        case .failure(let problem):
            return problem
        }
    }

    static func load(_ bytes: [UInt8]) -> Result<Tokenizer, TokenizerError.Problem> {
        bytes.withUnsafeBytes { raw in Result { () throws(TokenizerError.Problem) in try GGUFVocabularyLoader.load(raw) } }
    }

    static func problem(_ w: W) -> TokenizerError.Problem? { problem(w.bytes()) }

    @Test func tinyVocabularyLoadsAndEncodes() throws {
        let t = try Self.load(Self.tinyGPT2().bytes()).get()
        #expect(t.vocabulary.tokenCount == 260)
        #expect(try t.encode("hi hi!") == [104, 105, 257, 33])
        #expect(try t.encode("a<u>b") == [97, 259, 98])
        #expect(try t.encode("<|end|>", recognizeSpecialTokens: true) == [258])
        #expect(try t.encode("<|end|>") == [60, 124, 101, 110, 100, 124, 62])
        #expect(Array(t.vocabulary.tokenBytes(257)) == Array(" hi".utf8))
        #expect(Array(t.vocabulary.tokenBytes(32)) == [0x20])
        #expect(Array(t.vocabulary.tokenBytes(258)) == Array("<|end|>".utf8))
        #expect(t.vocabulary.specialTokenIDs == [258])
        #expect(t.vocabulary.eosTokenIDs == [258])
        #expect(t.decodeText([104, 105, 257, 33]) == "hi hi!")
    }

    /// "qwen2" and "llama-bpe" look a word up whole before merging (tiktoken, `ignore_merges`); "gpt-2" merges
    /// every word. Token "hi" (260) has no merge that builds it.
    @Test func wholeWordsFirstByPreTokenizer() throws {
        for (pre, expected) in [("qwen2", [260]), ("llama-bpe", [260]), ("gpt-2", [104, 105]), ("default", [104, 105])] {
            var w = Self.tinyGPT2()
            guard case .strings(let tokens) = w.metadata.first(where: { $0.key == "tokenizer.ggml.tokens" })!.value else { return }
            w.set("tokenizer.ggml.tokens", .strings(tokens + [Array("hi".utf8)]))
            w.set("tokenizer.ggml.token_type", .int32s([Int32](repeating: 1, count: 258) + [3, 4, 1]))
            w.set("tokenizer.ggml.pre", .string(pre))
            #expect(try Self.load(w.bytes()).get().encode("hi") == expected, "\(pre)")
        }
    }

    @Test func loadDetectsGGUFByExtensionOrMagic() throws {
        let bytes = Self.tinyGPT2().bytes()
        for name in ["tiny.gguf", "model.bin", "weights"] {
            let t = try Tokenizer.load(path: MalformedInputTests.temp(name, bytes), vocabularySize: 300)
            #expect(t.format == .gguf)
            #expect(t.vocabulary.size == 300)
        }
        let wrong = MalformedInputTests.temp("bad.gguf", Array("GGML".utf8) + [UInt8](repeating: 0, count: 20))
        #expect(MalformedInputTests.failure(wrong)?.problem == .malformedGGUF(offset: 0, "the file does not start with the magic \"GGUF\""))
        #expect(MalformedInputTests.failure(MalformedInputTests.temp("e.gguf", ""))?.problem == .emptyFile)
        let path = MalformedInputTests.temp("tiny.gguf", bytes)
        #expect(throws: TokenizerError(file: path, .unsupported("preset, pattern and specialTokens apply to tiktoken files only (this file names its own)"))) {
            try Tokenizer.load(path: path, preset: .qwen2)
        }
        #expect(try Tokenizer.load(path: path, eosTokens: ["<|end|>"]).vocabulary.eosTokenIDs == [258])
    }

    /// One key, `tokenizer.ggml.model` = "gpt2", no tensors: 0 magic, 4 version, 8 tensor count, 16 metadata
    /// count, 24 key length, 32 key, 52 value type, 56 string length, 64 "gpt2", 68 end.
    @Test func truncatedAtEveryHeaderField() {
        var w = W()
        w.set("tokenizer.ggml.model", .string("gpt2"))
        let full = w.bytes()
        #expect(full.count == 68)
        let cases: [(Int, TokenizerError.Problem)] = [
            (0, .emptyFile),
            (3, .malformedGGUF(offset: 0, "truncated: the magic needs 4 bytes, 3 remain")),
            (4, .malformedGGUF(offset: 4, "truncated: the version needs 4 bytes, 0 remain")),
            (10, .malformedGGUF(offset: 8, "truncated: the tensor count needs 8 bytes, 2 remain")),
            (20, .malformedGGUF(offset: 16, "truncated: the metadata count needs 8 bytes, 4 remain")),
            // One KV takes at least 13 bytes, so a cut before that many remain is caught at the count.
            (30, .malformedGGUF(offset: 16, "the metadata count is 1: at 13 bytes or more each, more than the 6 bytes that remain")),
            (37, .malformedGGUF(offset: 24, "the length 20 of a metadata key runs past the end of the file (5 bytes remain)")),
            (54, .malformedGGUF(offset: 52, "truncated: the value type of tokenizer.ggml.model needs 4 bytes, 2 remain")),
            (60, .malformedGGUF(offset: 56, "truncated: the length of the value of tokenizer.ggml.model needs 8 bytes, 4 remain")),
            (66, .malformedGGUF(offset: 56, "the length 4 of the value of tokenizer.ggml.model runs past the end of the file (2 bytes remain)")),
            (68, .missingMetadata("tokenizer.ggml.tokens")),
        ]
        for (cut, expected) in cases {
            #expect(Self.problem(Array(full.prefix(cut))) == expected, "cut at \(cut)")
        }
    }

    /// Every prefix of a complete file fails with a GGUF error located inside the prefix (at its end when the
    /// cut falls on a field boundary), saying what no longer fits.
    @Test func everyTruncationIsALocatedError() {
        let full = Self.tinyGPT2().bytes()
        for cut in 1..<full.count {
            guard case .malformedGGUF(let offset, let message) = Self.problem(Array(full.prefix(cut))) else {
                Issue.record("cut at \(cut): not a malformedGGUF"); continue
            }
            #expect(offset <= cut, "cut at \(cut)")
            #expect(message.contains("remain"), "cut at \(cut): \(message)")
        }
    }

    @Test func truncatedTensorInfo() {
        let full = Self.tinyGPT2().bytes()
        // The tensor info is the last 33 bytes: name (8 + 1), dimension count 4, one dimension 8, type 4, offset 8.
        let dims = full.count - 33 + 9 + 4
        #expect(Self.problem(Array(full.prefix(dims + 3))) == .malformedGGUF(offset: dims, "truncated: dimension 0 of tensor 0 needs 8 bytes, 3 remain"))
        var w = Self.tinyGPT2()
        w.tensors = [.init(name: "t", dimensions: [1, 1, 1, 1, 1])]
        #expect(Self.problem(w) == .malformedGGUF(offset: dims - 4, "tensor 0 has 5 dimensions (at most 4)"))
    }

    @Test func wrongMagicAndVersions() {
        var bytes = Self.tinyGPT2().bytes()
        bytes[3] = 0x47
        #expect(Self.problem(bytes) == .malformedGGUF(offset: 0, "the file does not start with the magic \"GGUF\""))
        for version: UInt32 in [1, 4, 0x0300_0000] { // 0x03000000: version 3 written big-endian
            var w = Self.tinyGPT2()
            w.version = version
            #expect(Self.problem(w) == .unsupportedGGUFVersion(version))
        }
        var v2 = Self.tinyGPT2()
        v2.version = 2
        #expect(throws: Never.self) { try Self.load(v2.bytes()).get() }
    }

    @Test func lengthsAndCountsPastTheEnd() {
        var w = Self.tinyGPT2()
        w.set("general.name", .raw(type: 8, payload: W.le(UInt64(1) << 40)))
        let at = w.valueOffset("general.name") + 4
        let remaining = w.bytes().count - at - 8
        #expect(Self.problem(w) == .malformedGGUF(offset: at, "the length 1099511627776 of the value of general.name runs past the end of the file (\(remaining) bytes remain)"))

        var huge = Self.tinyGPT2()
        huge.set("tokenizer.ggml.tokens", .raw(type: 9, payload: W.le(UInt32(8)) + W.le(UInt64(1) << 62)))
        let countAt = huge.valueOffset("tokenizer.ggml.tokens") + 8
        let left = huge.bytes().count - countAt - 8
        #expect(Self.problem(huge) == .malformedGGUF(offset: countAt, "the array count of tokenizer.ggml.tokens is 4611686018427387904: at 8 bytes or more each, more than the \(left) bytes that remain"))

        var numbers = Self.tinyGPT2()
        numbers.set("tokenizer.ggml.token_type", .raw(type: 9, payload: W.le(UInt32(5)) + W.le(UInt64(1) << 62)))
        let numbersAt = numbers.valueOffset("tokenizer.ggml.token_type") + 8
        let numbersLeft = numbers.bytes().count - numbersAt - 8
        #expect(Self.problem(numbers) == .malformedGGUF(offset: numbersAt, "the array count of tokenizer.ggml.token_type is 4611686018427387904: at 4 bytes or more each, more than the \(numbersLeft) bytes that remain"))

        var counts = W()
        counts.set("tokenizer.ggml.model", .string("gpt2"))
        var bytes = counts.bytes()
        bytes.replaceSubrange(16..<24, with: W.le(UInt64.max))
        #expect(Self.problem(bytes) == .malformedGGUF(offset: 16, "the metadata count is 18446744073709551615: at 13 bytes or more each, more than the 44 bytes that remain"))
        bytes.replaceSubrange(8..<16, with: W.le(UInt64(1) << 62))
        #expect(Self.problem(bytes) == .malformedGGUF(offset: 8, "the tensor count is 4611686018427387904: at 24 bytes or more each, more than the 52 bytes that remain"))
    }

    @Test func badValues() {
        var key = W()
        key.set("tokenizer.ggml.model", .string("gpt2"))
        var keyBytes = key.bytes()
        keyBytes[32] = 0xFF // first byte of the key
        #expect(Self.problem(keyBytes) == .malformedGGUF(offset: 24, "metadata key is not valid UTF-8"))

        var unknownType = Self.tinyGPT2()
        unknownType.set("general.x", .raw(type: 13, payload: []))
        #expect(Self.problem(unknownType) == .malformedGGUF(offset: unknownType.valueOffset("general.x"), "unknown value type 13"))

        var badBool = Self.tinyGPT2()
        badBool.set("general.flag", .raw(type: 7, payload: [2]))
        #expect(Self.problem(badBool) == .malformedGGUF(offset: badBool.valueOffset("general.flag") + 4, "bool general.flag is 2, not 0 or 1"))

        var duplicate = Self.tinyGPT2()
        duplicate.metadata.append(("tokenizer.ggml.pre", .string("gpt-2")))
        let keyAt = duplicate.bytes().count - 33 - (8 + 18 + 4 + 8 + 5)
        #expect(Self.problem(duplicate) == .malformedGGUF(offset: keyAt, "duplicate metadata key tokenizer.ggml.pre"))

        var nested = Self.tinyGPT2()
        // array of array of array of array of array of uint8 (depth 5), each of count 1.
        let deep = (0..<4).flatMap { _ in W.le(UInt32(9)) + W.le(UInt64(1)) } + W.le(UInt32(0)) + W.le(UInt64(1)) + [7]
        nested.set("general.deep", .raw(type: 9, payload: deep))
        let deepAt = nested.valueOffset("general.deep") + 4 + 4 * 12
        #expect(Self.problem(nested) == .malformedGGUF(offset: deepAt, "arrays nested deeper than 4 in general.deep[0][0][0][0]"))
    }

    @Test func wrongTypesForTokenizerKeys() {
        var asString = Self.tinyGPT2()
        asString.set("tokenizer.ggml.tokens", .string("a b c"))
        #expect(Self.problem(asString) == .wrongMetadataType(key: "tokenizer.ggml.tokens", expected: "array of string", found: "string",
                                                             offset: asString.valueOffset("tokenizer.ggml.tokens")))
        var asInts = Self.tinyGPT2()
        asInts.set("tokenizer.ggml.tokens", .int32s([1, 2]))
        #expect(Self.problem(asInts) == .wrongMetadataType(key: "tokenizer.ggml.tokens", expected: "array of string", found: "array of int32",
                                                           offset: asInts.valueOffset("tokenizer.ggml.tokens")))
        var model = Self.tinyGPT2()
        model.set("tokenizer.ggml.model", .uint32(2))
        #expect(Self.problem(model) == .wrongMetadataType(key: "tokenizer.ggml.model", expected: "string", found: "uint32", offset: 24 + 8 + 20))
        var eos = Self.tinyGPT2()
        eos.set("tokenizer.ggml.eos_token_id", .string("</s>"))
        #expect(Self.problem(eos) == .wrongMetadataType(key: "tokenizer.ggml.eos_token_id", expected: "an integer", found: "string",
                                                        offset: eos.valueOffset("tokenizer.ggml.eos_token_id")))
    }

    @Test func missingAndInconsistentTokenizerKeys() {
        for key in ["tokenizer.ggml.model", "tokenizer.ggml.tokens", "tokenizer.ggml.merges"] {
            var w = Self.tinyGPT2()
            w.remove(key)
            #expect(Self.problem(w) == .missingMetadata(key))
        }
        var types = Self.tinyGPT2()
        types.set("tokenizer.ggml.token_type", .int32s([1, 1]))
        #expect(Self.problem(types) == .invalidVocabulary("tokenizer.ggml.token_type has 2 entries for 260 tokens"))
        var badType = Self.tinyGPT2()
        badType.set("tokenizer.ggml.token_type", .int32s([Int32](repeating: 1, count: 259) + [9]))
        #expect(Self.problem(badType) == .invalidVocabulary("token 259 has unknown token type 9"))
        var eos = Self.tinyGPT2()
        eos.set("tokenizer.ggml.eos_token_id", .uint32(999))
        #expect(Self.problem(eos) == .invalidVocabulary("tokenizer.ggml.eos_token_id is 999, not one of the 260 token ids"))
        var merge = Self.tinyGPT2()
        merge.set("tokenizer.ggml.merges", .strings([Array("Ġh".utf8)]))
        #expect(Self.problem(merge) == .invalidVocabulary("merge 0 'Ġh' is not two tokens separated by one space"))
        var unknownMerge = Self.tinyGPT2()
        unknownMerge.set("tokenizer.ggml.merges", .strings([Array("h i".utf8)]))
        #expect(Self.problem(unknownMerge) == .invalidVocabulary("merge 0 'h i' uses a token that is not in the vocabulary"))
        var few = Self.tinyGPT2()
        few.set("tokenizer.ggml.tokens", .strings([Array("a".utf8)]))
        few.remove("tokenizer.ggml.token_type")
        few.remove("tokenizer.ggml.eos_token_id")
        #expect(Self.problem(few) == .invalidVocabulary("no token for the single byte 0x00; byte-level BPE needs all 256"))
    }

    @Test func unknownModelAndPreTokenizer() throws {
        var bert = Self.tinyGPT2()
        bert.set("tokenizer.ggml.model", .string("bert"))
        #expect(Self.problem(bert) == .unknownModelType("GGUF tokenizer model 'bert' (supported: gpt2, llama)"))
        var pre = Self.tinyGPT2()
        pre.set("tokenizer.ggml.pre", .string("jais"))
        #expect(Self.problem(pre) == .unknownPreTokenizer("jais"))
        #expect(TokenizerError(file: "m.gguf", .unknownPreTokenizer("jais")).description
                == "m.gguf: unknown GGUF pre-tokenizer 'jais' (known: deepseek-r1-qwen, default, gpt-2, llama-bpe, llama-v3, llama3, qwen2)")
        var none = Self.tinyGPT2()
        none.remove("tokenizer.ggml.pre")
        // Absent means llama.cpp's "default": four splits, punctuation runs first.
        let t = try? Self.load(none.bytes()).get()
        #expect(try t?.encode("hi!!") == [104, 105, 33, 33])
    }

    @Test func sentencePieceKeys() throws {
        var w = W()
        w.set("tokenizer.ggml.model", .string("llama"))
        w.set("tokenizer.ggml.tokens", .strings([Array("<unk>".utf8), Array("a".utf8)]))
        w.set("tokenizer.ggml.token_type", .int32s([2, 1]))
        w.set("tokenizer.ggml.scores", .float32s([0, .nan]))
        #expect(Self.problem(w) == .invalidVocabulary("piece 1 has a score that is not a number (NaN)"))
        w.set("tokenizer.ggml.scores", .float32s([0]))
        #expect(Self.problem(w) == .invalidVocabulary("tokenizer.ggml.scores has 1 entries for 2 tokens"))
        w.set("tokenizer.ggml.scores", .float32s([0, -1]))
        w.set("tokenizer.ggml.precompiled_charsmap", .raw(type: 9, payload: W.le(UInt32(0)) + W.le(UInt64(1)) + [0]))
        #expect(Self.problem(w) == .unsupported("normalizer 'tokenizer.ggml.precompiled_charsmap' with a precompiled character map (only identity normalization is reproduced)"))
        w.remove("tokenizer.ggml.precompiled_charsmap")
        let t = try? Self.load(w.bytes()).get()
        // Dummy prefix '▁' is unknown here: unk (fused), then 'a'.
        #expect(try t?.encode("a") == [0, 1])
    }
}
