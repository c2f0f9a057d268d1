#if Llama
import Foundation
import GuidedDecoding
import GuidedLlama
import Testing

/// The package's GGUF tokenizer (what the masks are computed over) against llama.cpp's own, on the two
/// tiny models: the Qwen2 byte-level vocabulary and Mistral 7B v0.1's SentencePiece vocabulary.
@Suite("llama.cpp tokenizer cross-check", .enabled(if: LlamaFixtures.runs("llama.cpp tokenizer cross-check")))
struct LlamaTokenizerCrossCheckTests {
    struct Fixture {
        var text: String
        var ids: [String: [Int]]
    }

    /// ../shared/vocab/encode-fixtures.jsonl: 530 texts with their reference ids per vocabulary.
    static let fixtures = Result { () throws -> [Fixture] in
        let text = try String(contentsOfFile: LlamaFixtures.sharedPath("vocab/encode-fixtures.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let value = try JSONParser.parse(String(line))
            var ids: [String: [Int]] = [:]
            for key in ["qwen2", "mistral-7b-v0.1"] {
                ids[key] = value[key]?.arrayValue?.compactMap { $0.numberValue?.intValue } ?? []
            }
            return Fixture(text: value["text"]?.stringValue ?? "", ids: ids)
        }
    }

    static func vocabularyOnly(_ name: String) throws -> LlamaModel {
        let path = try (name == "qwen2" ? LlamaFixtures.qwen2Path : LlamaFixtures.mistralPath).get()
        return try LlamaModel(path: path, options: .init(vocabularyOnly: true))
    }

    /// Every fixture: our ids equal `llama_tokenize`'s (no special tokens parsed, none added) and the
    /// fixture's own, and both our decoding and `llama_detokenize` give the text back byte for byte.
    @Test(arguments: ["qwen2", "mistral"])
    func idsAndTextMatchLlamaCpp(_ name: String) throws {
        let model = try Self.vocabularyOnly(name)
        let fixtures = try Self.fixtures.get()
        #expect(fixtures.count == 530)
        let encoder = model.tokenizer.makeEncoder()
        var mismatches: [String] = []
        for f in fixtures {
            let ours = try encoder.encode(f.text)
            let theirs = model.llamaTokenize(f.text)
            if ours != theirs { mismatches.append("ids \(f.text.debugDescription): ours \(ours), llama.cpp \(theirs)") }
            if ours != f.ids[name == "qwen2" ? "qwen2" : "mistral-7b-v0.1"] { mismatches.append("fixture ids \(f.text.debugDescription)") }
            if model.tokenizer.decode(ours) != Array(f.text.utf8) { mismatches.append("our decoding \(f.text.debugDescription)") }
            if model.llamaDetokenize(theirs) != Array(f.text.utf8) {
                mismatches.append("llama_detokenize \(f.text.debugDescription): \(String(decoding: model.llamaDetokenize(theirs), as: UTF8.self).debugDescription)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(5).joined(separator: "; "))")
    }

    /// Every token's bytes in our vocabulary are the piece llama.cpp emits for it (special tokens rendered),
    /// so a mask allows exactly the tokens whose text fits.
    @Test(arguments: ["qwen2", "mistral"])
    func everyTokenHasLlamaCppsBytes(_ name: String) throws {
        let model = try Self.vocabularyOnly(name)
        let vocabulary = model.tokenizer.vocabulary
        #expect(vocabulary.tokenCount == model.tokenCount)
        #expect(model.tokenCount == (name == "qwen2" ? 151_851 : 32_000))
        var differing: [Int] = []
        for id in 0..<model.tokenCount where Array(vocabulary.tokenBytes(id)) != model.llamaPiece(id) {
            differing.append(id)
        }
        #expect(differing.isEmpty, "\(differing.count) tokens differ, first \(differing.prefix(5).map { "\($0): ours \(Array(vocabulary.tokenBytes($0))), llama.cpp \(model.llamaPiece($0))" })")
    }

    /// The tokens that end generation: ours are llama.cpp's end-of-generation set, except one. llama.cpp
    /// also ends at any token spelled `</s>` and retypes it as a control token; in Qwen2's vocabulary that
    /// is 128247, a normal token (text a JSON string may hold), and the file names other end tokens, so
    /// ours keep it as text. (The session decides where generation ends, from our set.)
    @Test(arguments: ["qwen2", "mistral"])
    func endTokensAreLlamaCppsEndOfGeneration(_ name: String) throws {
        let model = try Self.vocabularyOnly(name)
        let eog = (0..<model.tokenCount).filter { model.llamaIsEndOfGeneration($0) }
        #expect(model.tokenizer.vocabulary.eosTokenIDs == (name == "qwen2" ? [151_643, 151_645] : [2]))
        #expect(eog == (name == "qwen2" ? [128_247, 151_643, 151_645] : [2]))
        if name == "qwen2" {
            #expect(Array(model.tokenizer.vocabulary.tokenBytes(128_247)) == Array("</s>".utf8))
            #expect(!model.tokenizer.vocabulary.isSpecial(128_247))
        }
    }
}
#endif
