import Testing
@testable import GuidedTokenizers
import GuidedTestSupport

/// Cutting a SentencePiece-style word before '▁' (WordCuts.swift) must give exactly the ids of merging it whole.
@Suite(.enabled(if: SharedData.present(for: "WordCutTests"))) struct WordCutTests {
    static let mistral = ["mistral-7b-v0.1.model", "mistral-7b-v0.1.tokenizer.json"]

    @Test func cutsOnlyWhereSafe() throws {
        for file in Self.mistral { #expect(try LoadedTokenizers.named(file).cutsWords, "\(file)") }
        // Byte-level units: cutting does not apply.
        #expect(try !LoadedTokenizers.named("qwen2.tokenizer.json").cutsWords)
        #expect(try !LoadedTokenizers.named("qwen2.tiktoken").cutsWords)
    }

    /// The uncut path (one long word through the heap) still reproduces the references.
    @Test(arguments: mistral)
    func wholeWordMergingMatchesFixtures(_ file: String) throws {
        var tokenizer = try LoadedTokenizers.named(file)
        tokenizer.disableWordCuts()
        let encoder = tokenizer.makeEncoder()
        for f in LoadedTokenizers.fixtures.prefix(150) {
            #expect(try encoder.encode(f.text) == f.ids["mistral-7b-v0.1"], "\(f.text.debugDescription)")
        }
    }

    static func tinyModel(_ pieces: [(String, Float)]) throws -> Tokenizer {
        let all: [(String, Float, Int)] = [("<unk>", 0, 2), ("<s>", 0, 3), ("</s>", 0, 3)] + pieces.map { ($0.0, $0.1, 1) }
        return try Tokenizer.load(path: MalformedInputTests.temp("tiny.model", MalformedInputTests.modelProto(pieces: all, modelType: 2)))
    }

    @Test func runsOfMarkersStayWhole() throws {
        // "a  b" → "▁a▁▁b". Merging whole: ▁▁ (score -1) beats ▁b (-2) → ▁ a ▁▁ b. A cut before every '▁'
        // would give ▁ a | ▁ | ▁b → [3, 4, 3, 7]; the cut only before "▁▁b" keeps [3, 4, 6, 5].
        var t = try Self.tinyModel([("▁", -5), ("a", -5), ("b", -5), ("▁▁", -1), ("▁b", -2)])
        #expect(t.cutsWords)
        #expect(try t.encode("a  b") == [3, 4, 6, 5])
        #expect(try t.encode("b a  b  ") == [7, 3, 4, 6, 5, 6])
        t.disableWordCuts()
        #expect(try t.encode("a  b") == [3, 4, 6, 5])
        #expect(try t.encode("b a  b  ") == [7, 3, 4, 6, 5, 6])
    }

    @Test func pieceAcrossAMarkerPreventsCutting() throws {
        // "a▁" and "a▁b" join a character to a following '▁': "a b" → "▁a▁b" must merge a▁ then a▁b → [3, 7],
        // where cutting before the second '▁' would give [3, 4, 3, 5].
        var t = try Self.tinyModel([("▁", -5), ("a", -5), ("b", -5), ("a▁", -1), ("a▁b", -0.5)])
        #expect(t.cutsWords) // ASCII pairs such as "ab" still may be cut
        #expect(t.model.cutRules?.marker == nil)
        #expect(try t.encode("a b") == [3, 7])
        t.disableWordCuts()
        #expect(try t.encode("a b") == [3, 7])
    }

    @Test func asciiPairsAreCutOnlyWhenNoPieceHoldsThem() throws {
        // "a.b." → "▁a.b.": merging whole gives ▁a . b. → [7, 6, 8]. No piece holds "a." or ".b", so those are
        // cut; "b." is a piece, so cutting there (as a naive cut between all ASCII characters would) would
        // give b . instead of b.
        var t = try Self.tinyModel([("▁", -5), ("a", -5), ("b", -5), (".", -5), ("▁a", -1), ("b.", -2)])
        let rules = try #require(t.model.cutRules)
        let allows = { (x: Character, y: Character) in
            rules.asciiCuts.withUnsafeBufferPointer { WordCutRules.allows($0, Int(x.asciiValue!), y.asciiValue!) }
        }
        #expect(allows("a", "."))
        #expect(allows(".", "b"))
        #expect(!allows("b", "."))
        #expect(!allows("a", "z")) // 'z' is not a piece
        #expect(try t.encode("a.b.") == [7, 6, 8])
        #expect(try t.encode("a.zb.") == [7, 6, 0, 8])
        t.disableWordCuts()
        #expect(try t.encode("a.b.") == [7, 6, 8])
        #expect(try t.encode("a.zb.") == [7, 6, 0, 8])
    }

    @Test func unknownCharactersStayInTheirPart() throws {
        // 'z' is unknown (no byte fallback): each run of unknown characters is one <unk>, and a cut never
        // fuses the runs on its two sides.
        let t = try Self.tinyModel([("▁", -5), ("a", -5), ("▁a", -1)])
        #expect(t.cutsWords)
        #expect(try t.encode("zz zz a") == [3, 0, 3, 0, 5])
        var whole = t
        whole.disableWordCuts()
        #expect(try whole.encode("zz zz a") == [3, 0, 3, 0, 5])
    }

    @Test func huggingFaceNormalizerOnlyModelCuts() throws {
        // Mistral's tokenizer.json shape: Prepend + Replace normalizers, no pre-tokenizer, byte fallback.
        var vocab = ["\"<unk>\": 0", "\"▁\": 1", "\"a\": 2", "\"b\": 3", "\"▁▁\": 4", "\"▁b\": 5"]
        for b in 0..<256 { vocab.append("\"<0x\(SentencePieceLoader.hex(b))>\": \(6 + b)") }
        let json = """
        {"added_tokens": [{"id": 0, "content": "<unk>", "special": true}],
         "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
                        {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
         "pre_tokenizer": null,
         "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                     {"type": "ByteFallback"}, {"type": "Fuse"}]},
         "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": true, "byte_fallback": true,
                   "vocab": {\(vocab.joined(separator: ", "))}, "merges": [["▁", "▁"], ["▁", "b"]]}}
        """
        var t = try Tokenizer.load(path: MalformedInputTests.temp("tokenizer.json", json))
        #expect(t.cutsWords)
        // "a  b!" → ▁ a ▁▁ b <0x21>.
        #expect(try t.encode("a  b!") == [1, 2, 4, 3, 6 + 0x21])
        t.disableWordCuts()
        #expect(try t.encode("a  b!") == [1, 2, 4, 3, 6 + 0x21])
    }
}
