/// Special-token terminals (`<|im_end|>`, `<[128009]>`, XGrammar's `Token(…)`): the Lark and EBNF front
/// ends read them and refuse them here, in one place, until the grammar IR and the mask engine have
/// token terminals (a byte grammar cannot say "this token, not these bytes"). Wiring them up means
/// replacing this refusal with the IR's token terminal.
enum SpecialTokens {
    static func refusal(_ token: String) -> String {
        "special token \(token): special tokens need token terminals in the grammar IR and the mask engine, "
            + "which are not yet supported"
    }
}

/// Rule options of Lark and EBNF (`name[lazy, max_tokens=8]`): those that only label or sample are
/// accepted and change nothing; those that change which texts match are refused by name.
enum RuleOptions {
    /// Options that do not change the language: captures and sampling temperature.
    static let ignored: Set<String> = [
        "capture", "stop_capture", "temperature",
        "capture_hidden_suffix_bytes", "capture_hidden_stop_bytes", "capture_hidden_body_rule_id",
        "capture_hidden_marker_rule_id",
    ]

    /// Why an option that changes the language is refused, or nil for an unknown option.
    static func refusal(_ option: String) -> String? {
        switch option {
        case "lazy":
            return "rule option 'lazy' (committed-shortest matching) is not supported: it depends on where a match may end, not on the text alone"
        case "stop", "suffix":
            return "rule option '\(option)' (a lazy match up to a marker) is not supported"
        case "max_tokens":
            return "rule option 'max_tokens' is not supported: it bounds LLM tokens, which a grammar over bytes cannot count"
        case "max_chars":
            return "rule option 'max_chars' is not supported: a budget that may be relaxed at a rule's end is not a language"
        default:
            return nil
        }
    }
}
