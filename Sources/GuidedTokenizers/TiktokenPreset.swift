/// Pre-tokenizer regexes and special tokens of known tiktoken vocabularies (a `.tiktoken` file holds only
/// the mergeable tokens and their ranks).
public enum TiktokenPreset: String, CaseIterable, Sendable {
    /// Qwen2 / Qwen2.5: 151,643 tokens, then `<|endoftext|>`, `<|im_start|>`, `<|im_end|>` and
    /// `<|extra_0|>` ... `<|extra_204|>` (151,851 in all); the model's logits are 151,936 wide.
    case qwen2
    /// Qwen3.5 / Qwen3.6: 248,044 tokens, then 33 special tokens (see `specialTokens`).
    case qwen3_6 = "qwen3.6"

    public var pattern: String {
        switch self {
        case .qwen2:
            return #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
        case .qwen3_6:
            return #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
        }
    }

    /// Special tokens in id order, starting right after the last mergeable token.
    ///
    /// Qwen3.6: the `.tiktoken` file does not name them; the list follows the Qwen3.5 `tokenizer_config.json`
    /// `added_tokens_decoder` order (the Qwen3 special tokens in their Qwen3 order, then the audio / TTS
    /// tokens), 33 tokens at 248,044 ... 248,076, which matches the "+33 special tokens" of the vocabulary.
    public var specialTokens: [String] {
        switch self {
        case .qwen2:
            return ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] + (0...204).map { "<|extra_\($0)|>" }
        case .qwen3_6:
            return ["<|endoftext|>", "<|im_start|>", "<|im_end|>",
                    "<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>",
                    "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>",
                    "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>",
                    "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>",
                    "<|repo_name|>", "<|file_sep|>", "<tool_response>", "</tool_response>", "<think>", "</think>",
                    "<|audio_start|>", "<|audio_end|>", "<tts_pad>", "<tts_text_bos>", "<tts_text_eod>",
                    "<tts_text_bos_single>", "<|audio_pad|>"]
        }
    }

    /// Tokens that end generation: `<|endoftext|>` and `<|im_end|>`.
    public var eosTokens: [String] { ["<|endoftext|>", "<|im_end|>"] }

    /// Width of the model's logits (padded embedding), larger than the tokenizer's token count.
    public var modelVocabularySize: Int {
        switch self {
        case .qwen2: return 151_936
        case .qwen3_6: return 248_320
        }
    }
}
