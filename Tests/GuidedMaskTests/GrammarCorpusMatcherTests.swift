import Foundation
import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// The published example grammars of Corpora/grammars (llama.cpp's GBNF, llguidance's Lark; see
/// Corpora/grammars/LICENSE.md) through the mask engine: along sampled sentences, fed one byte token at
/// a time, every mask equals the reference recognizer's (all 256 bytes, multi-byte tokens and EOS), and
/// each sentence ends accepted. The same for each grammar exported as GBNF and read back.
@Suite struct GrammarCorpusMatcherTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpora/grammars")

    static let files = ["llama.cpp/arithmetic.gbnf", "llama.cpp/c.gbnf", "llama.cpp/chess.gbnf", "llama.cpp/english.gbnf",
                        "llama.cpp/japanese.gbnf", "llama.cpp/json.gbnf", "llama.cpp/json_arr.gbnf", "llama.cpp/list.gbnf",
                        "llguidance/lark.lark", "llguidance/rfc.lark", "llguidance/function-call.lark"]

    /// Every byte, then a few longer tokens (so masks hold tokens that span rule boundaries), then EOS.
    static let vocabulary: TokenVocabulary = {
        var tokens = (0..<256).map { [UInt8($0)] }
        for s in ["true", "false", "null", "\": ", ", ", "int ", "return ", "こん", "にち", "- ", "\n- ", "1. ", "start", ": ",
                  "<rfc", "</", "\"name\"", "{\"", "ws", "//", "/*", "*/", "  ", "\n\n"] {
            tokens.append(Array(s.utf8))
        }
        tokens.append(Array("</s>".utf8))
        return TokenVocabulary(tokens: tokens, specialTokenIDs: [tokens.count - 1], eosTokenIDs: [tokens.count - 1])
    }()

    static func grammar(_ path: String) throws -> Grammar {
        let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        return path.hasSuffix(".lark") ? try Grammar(lark: text) : try Grammar(gbnf: text)
    }

    @Test(arguments: files)
    func masksMatchTheReferenceAlongSentences(_ path: String) throws {
        let index = try VocabularyIndex(Self.vocabulary)
        let original = try Self.grammar(path)
        let exported = try Grammar(gbnf: try original.exported(as: .gbnf).text)
        for grammar in [original, exported] {
            var check = try ReferenceMaskCheck(grammar: grammar, index: index)
            var rng = SplitMix64Generator(seed: 21)
            let sampler = SentenceSampler(grammar)
            var sentences = 0
            for _ in 0..<4 {
                guard let sentence = sampler.sentence(using: &rng, budget: 24) else { break }
                // Each byte is its own token (ids 0…255); the last step checks the end (EOS bit, canTerminate).
                let path = sentence.map(Int.init)
                try check.walk(steps: path.count + 1, path: path, rng: &rng, sample: 200, fullBudget: 20_000)
                sentences += 1
            }
            #expect(sentences == 4)
            #expect(check.mismatches.isEmpty, "\(path): \(check.mismatches.prefix(3))")
            #expect(check.checks > 0)
        }
    }
}
