import GuidedCLI
import GuidedTokenizers

/// A `--vocab FILE [--preset NAME]` pair checked before loading: a `.tiktoken` file holds only its tokens,
/// so its pre-tokenizer and special tokens come from `--preset`, inferred from the known file names
/// (`qwen2*.tiktoken`, `qwen3.6*.tiktoken`, the built-in `prose-bpe.tiktoken`, which is encoded the Qwen2
/// way). Other formats name their own and refuse a preset.
struct VocabularyChoice {
    let path: String
    let preset: TiktokenPreset?

    static let presetNames = TiktokenPreset.allCases.map(\.rawValue)

    init(path: String, presetName: String?) throws(UsageError) {
        self.path = path
        let file = path.split(separator: "/").last.map(String.init)?.lowercased() ?? path
        let named: TiktokenPreset?
        if let presetName {
            guard let p = TiktokenPreset(rawValue: presetName) else {
                throw .badValue(presetName, for: "--preset", expected: "one of " + Self.presetNames.joined(separator: ", "))
            }
            named = p
        } else {
            named = nil
        }
        guard file.hasSuffix(".tiktoken") else {
            if named != nil {
                throw UsageError("--preset applies to .tiktoken files only; \(path) names its own tokenizer")
            }
            preset = nil
            return
        }
        if let named {
            preset = named
        } else if let inferred = Self.infer(file) {
            preset = inferred
        } else {
            throw UsageError("cannot infer the pre-tokenizer of \(path) from its name: give --preset (one of \(Self.presetNames.joined(separator: ", ")))")
        }
    }

    /// The preset a known file name implies. Longest names first: `qwen3.6` is not `qwen3`.
    static func infer(_ fileName: String) -> TiktokenPreset? {
        if fileName.hasPrefix("qwen3.6") || fileName.hasPrefix("qwen3_6") { return .qwen3_6 }
        if fileName.hasPrefix("qwen2") { return .qwen2 }
        if fileName == "prose-bpe.tiktoken" { return .qwen2 }
        return nil
    }

    /// The model's logits width when this is the preset's full vocabulary (tokens plus special tokens),
    /// else nil: a smaller vocabulary with the same regex, like the built-in one, is not padded.
    func modelVocabularySize(tokenCount: Int) -> Int? {
        guard let preset else { return nil }
        let full: Int
        switch preset {
        case .qwen2: full = 151_643 + preset.specialTokens.count
        case .qwen3_6: full = 248_044 + preset.specialTokens.count
        }
        return tokenCount == full ? preset.modelVocabularySize : nil
    }

    /// Loads the tokenizer, padded to the model's logits width for a preset's full vocabulary.
    func load(pad: Bool) throws -> Tokenizer {
        try InputError.requireFile(path)
        var t = try Tokenizer.load(path: path, preset: preset)
        if pad, let size = modelVocabularySize(tokenCount: t.vocabulary.tokenCount) { t = t.padded(to: size) }
        return t
    }
}
