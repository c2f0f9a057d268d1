import PCRE2Kit

/// The pre-tokenizers a byte-level BPE GGUF can name in `tokenizer.ggml.pre`: the regexes that cut text
/// into words before merging. The file stores only the name (llama.cpp keeps the regexes in its source), so
/// each supported name is mapped here to the same regexes our other loaders use for that model family;
/// any other name is refused (guessing a pre-tokenizer would silently give other ids).
///
/// Like llama.cpp's regex split, each regex refines the words of the previous one and text between
/// matches stays a word of its own (a Hugging Face `Split` with behaviour `Isolated`).
struct GGUFPreTokenizer {
    let regexes: [String]
    /// A word that is itself a token is emitted whole, before merging (Hugging Face `ignore_merges`).
    let wholeWordFirst: Bool

    static let gpt2 = PreTokenizer.gpt2Pattern
    static let llama3 = #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#

    /// Name → regexes. Names that llama.cpp maps to one pre-tokenizer type share an entry.
    static let known: [String: GGUFPreTokenizer] = {
        var table: [String: GGUFPreTokenizer] = [:]
        // llama.cpp's fallback for BPE vocabularies (also used when the key is absent): four splits in turn.
        table["default"] = GGUFPreTokenizer(
            regexes: [#"[\p{P}\$\+<=>\^~\|]+"#,
                      #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"#,
                      #"\p{N}+"#, "[0-9][0-9][0-9]"],
            wholeWordFirst: false)
        table["gpt-2"] = GGUFPreTokenizer(regexes: [gpt2], wholeWordFirst: false)
        for name in ["llama3", "llama-v3", "llama-bpe"] {
            table[name] = GGUFPreTokenizer(regexes: [llama3], wholeWordFirst: true)
        }
        // Qwen2's tiktoken pattern (TiktokenPreset.qwen2). Whole words first, as tiktoken (Qwen's reference
        // tokenizer) and the converted tokenizer.json (`ignore_merges`) do; llama.cpp merges every word, which
        // can differ only for a word whose own token the merges do not rebuild.
        for name in ["qwen2", "deepseek-r1-qwen"] {
            table[name] = GGUFPreTokenizer(regexes: [TiktokenPreset.qwen2.pattern], wholeWordFirst: true)
        }
        return table
    }()

    static var knownNames: [String] { known.keys.sorted() }

    /// The pre-tokenizer steps for `name`.
    static func steps(_ name: String) throws(TokenizerError.Problem) -> (steps: [PreTokenizer], wholeWordFirst: Bool) {
        guard let spec = known[name] else { throw .unknownPreTokenizer(name) }
        var steps: [PreTokenizer] = []
        for source in spec.regexes {
            do { steps.append(.split(try PCRE2Regex(source), .isolated, invert: false)) } catch { throw .badPattern(error) }
        }
        return (steps, spec.wholeWordFirst)
    }
}
