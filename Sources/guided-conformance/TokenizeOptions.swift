import Foundation
import GuidedCLI
import GuidedTokenizers

/// Command-line options of `guided-conformance tokenize`.
struct TokenizeOptions {
    var vocab: String
    var fixtures: String
    var key: String
    var preset: TiktokenPreset?
    var pattern: String?
    var vocabularySize: Int?
    var bench = false

    static let options = [
        OptionSpec("--vocab", value: "FILE", help: "a .tiktoken, tokenizer.json or SentencePiece .model file (required)"),
        OptionSpec("--fixtures", value: "FILE", help: "JSON lines {\"text\": ..., NAME: [ids]} (default: encode-fixtures.jsonl beside the vocabulary)"),
        OptionSpec("--key", value: "NAME", help: "which reference ids to compare with (required)"),
        OptionSpec("--preset", value: "NAME", help: "pre-tokenizer and special tokens of a .tiktoken file: \(VocabularyChoice.presetNames.joined(separator: ", ")) (inferred from qwen2*/qwen3.6* names)"),
        OptionSpec("--pattern", value: "REGEX", help: "tiktoken pre-tokenizer regex (overrides the preset's)"),
        OptionSpec("--vocab-size", value: "N", help: "pad the vocabulary to the model's logits width N"),
        OptionSpec.flag("--bench", help: "report load time, encode throughput and memory of the loaded vocabulary"),
    ]

    init(_ p: ParsedArguments) throws(UsageError) {
        vocab = try p.required("--vocab")
        key = try p.required("--key")
        pattern = p.string("--pattern")
        vocabularySize = try p.int("--vocab-size", in: 1...Int.max)
        bench = p.has("--bench")
        // A pattern stands in for a preset's regex, so nothing needs inferring then.
        if pattern != nil && p.string("--preset") == nil {
            preset = nil
        } else {
            preset = try VocabularyChoice(path: vocab, presetName: p.string("--preset")).preset
        }
        fixtures = p.string("--fixtures")
            ?? URL(fileURLWithPath: vocab).deletingLastPathComponent().appendingPathComponent("encode-fixtures.jsonl").path
    }
}

/// A fixtures file that cannot be used; the message names the file and line.
struct TokenizeInputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
