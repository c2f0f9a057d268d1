/// Special-token terminals in grammar text: Lark's `<|im_end|>` (a token by its text), `<[128009]>` and
/// `<[128000-128010,128020]>` (tokens by id, ranges inclusive), and XGrammar EBNF's `Token(128010, …)`.
/// Each becomes `GrammarExpr.token` (one token id, never its spelling in bytes), or a choice of them.
///
/// What needs the vocabulary's size or reads one token of any text is refused by name: Lark's negated
/// (`<[^…]>`) and wildcard (`<[*]>`) ranges and EBNF's `ExcludeToken` / `TokenTagDispatch` all mean
/// "one token, whatever its bytes", which a grammar over bytes with token terminals cannot say exactly
/// (an ordinary token read as one symbol would bypass the byte grammar around it).
enum SpecialTokens {
    /// Why a special token is refused (the message of the front end's error).
    struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// A choice of more ids than this is refused: each id is a symbol class of the compiled automaton.
    static let maximumIDs = 4_096

    /// `text` is the whole `<…>` of Lark, brackets included. Returns the expression or why it is refused.
    static func lark(_ text: String) -> Result<GrammarExpr, Refusal> {
        guard text.hasPrefix("<["), text.hasSuffix("]>") else {
            // `<|im_end|>`, `<think>`: the token whose text this is, angle brackets included.
            return .success(.token(.text(text)))
        }
        let body = text.dropFirst(2).dropLast(2)
        if body == "*" {
            return .failure(Refusal("special token \(text): the wildcard token range (any one token) is not supported: "
                + "a token of any text read as one symbol would bypass the grammar around it"))
        }
        if body.hasPrefix("^") {
            return .failure(Refusal("special token \(text): negated token ranges are not supported: they read one token "
                + "of any text as one symbol, bypassing the grammar around it"))
        }
        var ids: [Int] = []
        for part in body.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let low = Int(bounds[0]), low >= 0,
                  let high = bounds.count == 2 ? Int(bounds[1]) : low else {
                return .failure(Refusal("special token \(text): '\(part)' is not a token id or an inclusive range 'A-B' of ids"))
            }
            guard high >= low else { return .failure(Refusal("special token \(text): the range \(part) is empty")) }
            guard high - low < maximumIDs - ids.count else {
                return .failure(Refusal("special token \(text): more than \(maximumIDs) token ids"))
            }
            ids.append(contentsOf: low...high)
        }
        return .success(choice(of: ids))
    }

    /// One token of `ids` (duplicates merged, in increasing order).
    static func choice(of ids: [Int]) -> GrammarExpr {
        let sorted = Array(Set(ids)).sorted()
        return sorted.count == 1 ? .token(.id(sorted[0])) : .choice(sorted.map { .token(.id($0)) })
    }

    /// Why EBNF's token-level macros other than `Token` are refused.
    static func refusal(_ macro: String) -> String {
        "\(macro) is not supported: it reads one token of any text as one symbol, which would bypass the "
            + "grammar around it (Token(…) with the ids is supported)"
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
            return "rule option 'max_tokens' is not supported: llguidance ends the lexeme wherever the budget runs out, which is not a language; a structural tag's bounded free text (docs/tool-calls.md) bounds tokens exactly"
        case "max_chars":
            return "rule option 'max_chars' is not supported: a budget that may be relaxed at a rule's end is not a language"
        default:
            return nil
        }
    }
}
