import Foundation

extension Tokenizer {
    /// Loads a tokenizer, choosing the format from the file name: `*.tiktoken`, `*tokenizer.json` (any
    /// `.json`), a SentencePiece `*.model`, or a GGUF model file (`*.gguf`, or any file that starts with the
    /// GGUF magic), whose `tokenizer.ggml.*` metadata is read without reading the tensor data.
    ///
    /// - Parameters:
    ///   - preset: for tiktoken files, the model's pre-tokenizer regex and special tokens (`qwen2`, `qwen3.6`).
    ///   - pattern: for tiktoken files, a pre-tokenizer regex (overrides the preset's).
    ///   - specialTokens: for tiktoken files without a preset: special tokens and their ids (which must follow
    ///     the mergeable tokens without a gap).
    ///   - eosTokens: the special tokens that end generation, replacing the default (tiktoken presets:
    ///     `<|endoftext|>` and `<|im_end|>`; SentencePiece: the model's `eos_id`; tokenizer.json, which does not
    ///     record it: the special tokens among `HuggingFaceLoader.knownEOSNames`; GGUF: its EOS, EOT and EOM
    ///     ids, and for byte-level vocabularies the control tokens among those names too).
    ///   - vocabularySize: the model's logits width when larger than the token count (padded embeddings).
    /// - Throws: `TokenizerError` naming the file and the problem.
    public static func load(path: String, preset: TiktokenPreset? = nil, pattern: String? = nil,
                            specialTokens: [(text: String, id: Int)]? = nil, eosTokens: [String]? = nil,
                            vocabularySize: Int? = nil) throws(TokenizerError) -> Tokenizer {
        let name = (path as NSString).lastPathComponent.lowercased()
        // Before the whole-file read below: a GGUF model file can be gigabytes, of which only the metadata is
        // read. The magic is checked only for names of no other format (a tiktoken line may start "GGUF").
        let otherFormat = [".tiktoken", ".json", ".model"].contains { name.hasSuffix($0) }
        if name.hasSuffix(".gguf") || (!otherFormat && GGUFVocabularyLoader.hasMagic(path: path)) {
            if preset != nil || pattern != nil || specialTokens != nil {
                throw TokenizerError(file: path, .unsupported("preset, pattern and specialTokens apply to tiktoken files only (this file names its own)"))
            }
            let tokenizer = try GGUFVocabularyLoader.load(path: path)
            return try finish(tokenizer, path: path, eosTokens: eosTokens, vocabularySize: vocabularySize)
        }
        let data: [UInt8]
        do {
            data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped))
        } catch {
            throw TokenizerError(file: path, .cannotRead(error.localizedDescription))
        }
        if name.hasSuffix(".tiktoken") {
            guard let pattern = pattern ?? preset?.pattern else {
                throw TokenizerError(file: path, .unsupported("a tiktoken file needs a pre-tokenizer regex: give a preset or a pattern"))
            }
            let specials: [(text: String, id: Int)]
            if let specialTokens {
                specials = specialTokens
            } else if let preset {
                let first = Self.countLines(data)
                specials = preset.specialTokens.enumerated().map { ($0.element, first + $0.offset) }
            } else {
                specials = []
            }
            let tokenizer = try TiktokenLoader.load(data: data, file: path, pattern: pattern, specialTokens: specials,
                                                    eosTokens: eosTokens ?? preset?.eosTokens ?? [])
            return try finish(tokenizer, path: path, eosTokens: nil, vocabularySize: vocabularySize)
        } else if name.hasSuffix(".json") || name.hasSuffix(".model") {
            if preset != nil || pattern != nil || specialTokens != nil {
                throw TokenizerError(file: path, .unsupported("preset, pattern and specialTokens apply to tiktoken files only (this file names its own)"))
            }
            let tokenizer = name.hasSuffix(".json") ? try HuggingFaceLoader.load(data: data, file: path)
                                                : try SentencePieceLoader.load(data: data, file: path)
            return try finish(tokenizer, path: path, eosTokens: eosTokens, vocabularySize: vocabularySize)
        } else {
            throw TokenizerError(file: path, .unknownFormat)
        }
    }

    /// Applies the caller's EOS tokens (named special tokens of a file that names its own) and logits width.
    private static func finish(_ loaded: Tokenizer, path: String, eosTokens: [String]?,
                               vocabularySize: Int?) throws(TokenizerError) -> Tokenizer {
        var tokenizer = loaded
        if let eosTokens {
            var ids: [Int] = []
            for text in eosTokens {
                guard let id = tokenizer.specialTokenIDs[text] else {
                    throw TokenizerError(file: path, .badSpecialToken("EOS token '\(text)' is not a special token"))
                }
                ids.append(id)
            }
            tokenizer = tokenizer.withEOS(ids)
        }
        if let vocabularySize {
            guard vocabularySize >= tokenizer.vocabulary.tokenCount else {
                throw TokenizerError(file: path, .invalidVocabulary("vocabulary size \(vocabularySize) is smaller than the \(tokenizer.vocabulary.tokenCount) tokens"))
            }
            tokenizer = tokenizer.padded(to: vocabularySize)
        }
        return tokenizer
    }

    /// Non-blank lines of a tiktoken file: the number of mergeable tokens.
    static func countLines(_ data: [UInt8]) -> Int {
        var count = 0
        var lineHasContent = false
        for b in data {
            if b == 0x0A {
                if lineHasContent { count += 1 }
                lineHasContent = false
            } else if b != 0x0D {
                lineHasContent = true
            }
        }
        return count + (lineHasContent ? 1 : 0)
    }
}
