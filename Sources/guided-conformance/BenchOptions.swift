import GuidedCLI
import GuidedTokenizers

/// Command-line options of `guided-conformance bench`.
struct BenchOptions {
    var grammar: String
    var vocabulary: VocabularyChoice
    var texts: String
    var limit: Int?
    var maxRollback: Int?
    var unlimitedHistory = false

    static let options = [
        OptionSpec("--grammar", value: "FILE", help: "GBNF grammar the texts must match (required)"),
        OptionSpec("--vocab", value: "FILE", help: "vocabulary: .tiktoken, tokenizer.json or SentencePiece .model (required)"),
        OptionSpec("--preset", value: "NAME", help: "pre-tokenizer of a .tiktoken file: \(VocabularyChoice.presetNames.joined(separator: ", ")) (inferred from qwen2*/qwen3.6* names)"),
        OptionSpec("--texts", value: "FILE", help: "one document per line, fed token by token (required)"),
        OptionSpec("--limit", value: "N", help: "only the first N lines"),
        OptionSpec("--max-rollback", value: "N|none", help: "matcher history window in accepts, or none for unlimited (default: the matcher's)"),
    ]

    init(_ p: ParsedArguments) throws(UsageError) {
        grammar = try p.required("--grammar")
        texts = try p.required("--texts")
        vocabulary = try VocabularyChoice(path: try p.required("--vocab"), presetName: p.string("--preset"))
        limit = try p.int("--limit")
        if p.string("--max-rollback") == "none" {
            unlimitedHistory = true
        } else if let s = p.string("--max-rollback") {
            guard let n = Int(s), n >= 0 else { throw .badValue(s, for: "--max-rollback", expected: "an integer of at least 0 or none") }
            maxRollback = n
        }
    }
}
