import Foundation
@testable import GuidedTokenizers
import GuidedTestSupport

/// Each real vocabulary is loaded once per test run (loading 150k+ tokens in a debug build takes a while).
enum LoadedTokenizers {
    static let qwen2: Result<Tokenizer, TokenizerError> = load("vocab/qwen2.tiktoken", preset: .qwen2)
    static let qwen2JSON: Result<Tokenizer, TokenizerError> = load("vocab/qwen2.tokenizer.json")
    static let qwen36: Result<Tokenizer, TokenizerError> = load("vocab/qwen3.6.tiktoken", preset: .qwen3_6)
    static let mistralModel: Result<Tokenizer, TokenizerError> = load("vocab/mistral-7b-v0.1.model")
    static let mistralJSON: Result<Tokenizer, TokenizerError> = load("vocab/mistral-7b-v0.1.tokenizer.json")
    static let mistralV3: Result<Tokenizer, TokenizerError> = load("vocab/mistral-7b-v0.3.model")

    static func load(_ relative: String, preset: TiktokenPreset? = nil) -> Result<Tokenizer, TokenizerError> {
        Result { () throws(TokenizerError) in try Tokenizer.load(path: SharedData.path(relative), preset: preset) }
    }

    static func named(_ name: String) throws -> Tokenizer {
        switch name {
        case "qwen2.tiktoken": return try qwen2.get()
        case "qwen2.tokenizer.json": return try qwen2JSON.get()
        case "qwen3.6.tiktoken": return try qwen36.get()
        case "mistral-7b-v0.1.model": return try mistralModel.get()
        case "mistral-7b-v0.1.tokenizer.json": return try mistralJSON.get()
        default: fatalError("unknown test tokenizer \(name)")
        }
    }

    /// The fixture key of each vocabulary file.
    static func key(_ name: String) -> String {
        name.hasPrefix("qwen2") ? "qwen2" : name.hasPrefix("qwen3.6") ? "qwen3.6" : "mistral-7b-v0.1"
    }

    struct Fixture { let text: String; let ids: [String: [Int]] }

    static let fixtures: [Fixture] = {
        guard let data = FileManager.default.contents(atPath: SharedData.path("vocab/encode-fixtures.jsonl")) else { return [] }
        return data.split(separator: 0x0A).compactMap { line in
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let text = obj["text"] as? String else { return nil }
            var ids: [String: [Int]] = [:]
            for key in ["qwen2", "qwen3.6", "mistral-7b-v0.1"] { ids[key] = obj[key] as? [Int] }
            return Fixture(text: text, ids: ids)
        }
    }()
}
