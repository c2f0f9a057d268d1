import GuidedCLI
import GuidedDecoding

/// Options shared by `demo` and `session-bench`.
struct DemoOptions {
    var count = 5
    var seed: UInt64 = 1
    var vocabulary: VocabularyChoice
    var corpus: String
    var maxTokens = 256
    var maskbench: String?
    var schemas = 50
    var seeds = 5
    var runs = 20
    /// `--backend`: `ngram` (the default, trained on `corpus`) or `llama` (`model`, a GGUF file).
    var backend = "ngram"
    var model: String?
    var threads = 1
    var template = "chatml"

    /// The options both commands take: what the n-gram backend is trained on and how long a response may be.
    static func backendOptions(maxTokensDefault: Int) -> [OptionSpec] {
        [OptionSpec("--seed", value: "S", help: "first sampling seed; response i uses S + i (default 1)"),
         OptionSpec("--vocab", value: "FILE", help: "vocabulary: .tiktoken, tokenizer.json or SentencePiece .model (default: the built-in \(RepositoryFile.builtInVocabulary))"),
         OptionSpec("--preset", value: "NAME", help: "pre-tokenizer and special tokens of a .tiktoken file: \(VocabularyChoice.presetNames.joined(separator: ", ")) (inferred from qwen2*/qwen3.6* names)"),
         OptionSpec("--corpus", value: "DIR", help: "folder of .txt prose the n-gram backend is trained on (default \(RepositoryFile.prose))"),
         OptionSpec("--max-tokens", value: "N", help: "token budget of one response (default \(maxTokensDefault))"),
         OptionSpec("--backend", value: "NAME", help: "ngram (default) or llama: a GGUF model through llama.cpp (a build with `--traits Llama`, docs/llama.md)"),
         OptionSpec("--model", value: "FILE", help: "with --backend llama: the .gguf model (its own vocabulary is used; --vocab, if given, must match it)"),
         OptionSpec("--threads", value: "N", help: "with --backend llama: CPU threads (default 1)"),
         OptionSpec("--template", value: "NAME", help: "prompt template: chatml (default), mistral, plain")]
    }

    init(_ p: ParsedArguments, maxTokensDefault: Int = 256) throws(UsageError) {
        count = try p.int("--count", in: 1...Int.max) ?? count
        seed = try p.uint64("--seed") ?? seed
        vocabulary = try VocabularyChoice(path: p.string("--vocab") ?? RepositoryFile.path(RepositoryFile.builtInVocabulary),
                                          presetName: p.string("--preset"))
        corpus = p.string("--corpus") ?? RepositoryFile.path(RepositoryFile.prose)
        maxTokens = try p.int("--max-tokens", in: 1...Int.max) ?? maxTokensDefault
        maskbench = p.string("--maskbench")
        schemas = try p.int("--schemas", in: 1...Int.max) ?? schemas
        seeds = try p.int("--seeds", in: 1...Int.max) ?? seeds
        runs = try p.int("--runs", in: 1...Int.max) ?? runs
        backend = try p.choice("--backend", of: ["ngram", "llama"]) ?? backend
        template = try p.choice("--template", of: ["chatml", "mistral", "plain"]) ?? template
        threads = try p.int("--threads", in: 1...1024) ?? threads
        if backend == "llama" {
            model = try p.required("--model")
            vocabularyGiven = p.has("--vocab")
        } else if p.has("--model") || p.has("--threads") {
            throw UsageError("--model and --threads apply to --backend llama")
        }
    }

    /// `--vocab` was given (with `--backend llama`, a tokenizer file checked against the model's own).
    var vocabularyGiven = false

    /// The tokenizer and the n-gram backend trained on the prose corpus; a missing file or folder is
    /// reported by name before anything is read.
    func loadBackend() throws -> (Tokenizer, NGramBackend) {
        try InputError.requireDirectory(corpus)
        if let maskbench { try InputError.requireDirectory(maskbench) }
        let tokenizer = try vocabulary.load(pad: true)
        return (tokenizer, try NGramBackend(tokenizer: tokenizer, corpusDirectory: corpus))
    }
}
