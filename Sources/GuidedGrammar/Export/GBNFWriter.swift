/// Writes a `TextGrammar` as llama.cpp GBNF.
///
/// Rule names are `[a-zA-Z0-9-]+` (llama.cpp's parser takes no `_`); literals and classes escape every
/// character outside printable ASCII as `\uXXXX` / `\UXXXXXXXX` (code points, as GBNF reads them).
/// A long top-level choice goes one alternative per line, each line but the last ending in `|`
/// (llama.cpp continues a rule after `|`, not before it).
enum GBNFWriter {
    struct Style: TextGrammarStyle {
        var startName: String { "root" }
        func uniqueSuffix(_ n: Int) -> String { "-\(n)" }
        func identifier(_ name: String) -> String {
            var out = ""
            var lastDash = false
            for c in name.unicodeScalars {
                let keep = ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
                if keep { out.unicodeScalars.append(c); lastDash = false } else if !lastDash { out += "-"; lastDash = true }
            }
            return out
        }
        func literal(_ text: [Unicode.Scalar]) -> String { TextEscaping.quoted(text) }
        func characterClass(_ set: CodePointSet) -> String { TextEscaping.bracketClass(set) }
        var emptyText: String { "\"\"" }
        func definitionHead(_ name: String) -> String { name + " ::= " }
        var lineBreakBetweenAlternatives: String { " |\n    " }
        var commentPrefix: String { "#" }
        func token(_ t: TokenReference) -> String? { angleBracketToken(t) }
        func tokenRefusal(_ t: TokenReference) -> String { angleBracketRefusal(t) }
    }

    static func write(_ grammar: TextGrammar, header: [String]) -> String {
        TextGrammarPrinter(grammar, style: Style()).print(header: header)
    }

    /// What llama.cpp refuses although GBNF can say it.
    static func checkLlamaCpp(_ grammar: TextGrammar) throws(GrammarExportError) {
        if let r = TextGrammarAnalysis.leftRecursiveRule(grammar) {
            throw GrammarExportError(.leftRecursion, rule: grammar.rules[r].name,
                                     "the rule can call itself before reading any text, which llama.cpp refuses")
        }
        let limit = GrammarExportOptions.llamaCppMaximumRepetition
        for rule in grammar.rules {
            if let bound = largestBound(rule.body), bound > limit {
                throw GrammarExportError(.repetitionTooLarge, rule: rule.name,
                                         "a repetition bound of \(bound) is above llama.cpp's limit of \(limit)")
            }
        }
    }

    static func largestBound(_ e: TextExpr) -> Int? {
        switch e {
        case .repeat(let body, let lo, let hi):
            // `x*`, `x+` and `x?` are not counted repetitions.
            let own = (lo <= 1 && (hi == nil || hi == 1)) ? 0 : Swift.max(lo, hi ?? 0)
            return Swift.max(own, largestBound(body) ?? 0)
        case .sequence(let parts), .choice(let parts): return parts.compactMap(largestBound).max()
        default: return nil
        }
    }
}

/// Writes a `TextGrammar` as XGrammar's EBNF: GBNF's syntax, names `[A-Za-z_][A-Za-z0-9_.-]*`, and
/// escapes always of fixed length (`\uXXXX`, `\UXXXXXXXX`: XGrammar's `\x` takes any number of digits).
enum EBNFWriter {
    struct Style: TextGrammarStyle {
        var startName: String { "root" }
        func uniqueSuffix(_ n: Int) -> String { "-\(n)" }
        func identifier(_ name: String) -> String {
            var out = ""
            for c in name.unicodeScalars {
                let keep = ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_"
                    || c == "-" || c == "."
                out += keep ? String(Character(c)) : "_"
            }
            if let first = out.unicodeScalars.first, ("0"..."9").contains(first) { out = "_" + out }
            return out
        }
        func literal(_ text: [Unicode.Scalar]) -> String { TextEscaping.quoted(text) }
        func characterClass(_ set: CodePointSet) -> String { TextEscaping.bracketClass(set) }
        var emptyText: String { "\"\"" }
        func definitionHead(_ name: String) -> String { name + " ::= " }
        var lineBreakBetweenAlternatives: String { "\n    | " }
        var commentPrefix: String { "#" }
        /// XGrammar's `Token(id)`: by id only.
        func token(_ t: TokenReference) -> String? {
            if case .id(let id) = t.target, !t.fallsBackToText { return "Token(\(id))" }
            return nil
        }
        func tokenRefusal(_ t: TokenReference) -> String {
            "the token \(t) is named by its text, and XGrammar's EBNF names tokens by id only (Token(id))"
        }
    }

    static func write(_ grammar: TextGrammar, header: [String]) -> String {
        TextGrammarPrinter(grammar, style: Style()).print(header: header)
    }
}
