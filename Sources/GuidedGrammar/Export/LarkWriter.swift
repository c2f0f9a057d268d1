/// Writes a `TextGrammar` in llguidance's Lark dialect (also read by XGrammar): lowercase rules only,
/// `start` first, no `%ignore`.
///
/// Every lexeme is one character: a literal is written one quoted character at a time (`"t" "r" "u"
/// "e"`) and a class as a one-character regex (`/[a-z]/`). llguidance lexes greedily (a lexeme runs as
/// long as some allowed lexeme can continue), so a longer literal could swallow text that the grammar
/// gives to the next lexeme (`("a" | "ab") "bc"` rejects `abc` there); one-character lexemes cannot, so
/// the text means the same language under llguidance's lexer, XGrammar's, and `Grammar(lark:)`. The
/// price is speed in llguidance, whose docs advise longer lexemes.
enum LarkWriter {
    struct Style: TextGrammarStyle {
        var startName: String { "start" }
        func uniqueSuffix(_ n: Int) -> String { "_\(n)" }
        func identifier(_ name: String) -> String {
            var out = ""
            for c in name.lowercased().unicodeScalars {
                let keep = ("a"..."z").contains(c) || ("0"..."9").contains(c)
                if keep { out.unicodeScalars.append(c) } else if !out.hasSuffix("_") { out += "_" }
            }
            if let first = out.unicodeScalars.first, ("a"..."z").contains(first) { return out }
            return "r" + (out.hasPrefix("_") ? out : "_" + out)
        }
        func literal(_ text: [Unicode.Scalar]) -> String { text.map { Self.quoted($0) }.joined(separator: " ") }
        func characterClass(_ set: CodePointSet) -> String {
            let complement = set.complement()
            let negated = !complement.isEmpty && complement.ranges.count < set.ranges.count
            var s = negated ? "/[^" : "/["
            for r in negated ? complement.ranges : set.ranges {
                s += Self.regexMember(r.lowerBound)
                if r.upperBound > r.lowerBound {
                    if r.upperBound > r.lowerBound + 1 { s += "-" }
                    s += Self.regexMember(r.upperBound)
                }
            }
            return s + "]/"
        }
        var emptyText: String { "\"\"" }
        func definitionHead(_ name: String) -> String { name + ": " }
        var lineBreakBetweenAlternatives: String { "\n    | " }
        var commentPrefix: String { "//" }
        func token(_ t: TokenReference) -> String? { angleBracketToken(t) }
        func tokenRefusal(_ t: TokenReference) -> String { angleBracketRefusal(t) }

        /// One character as a Lark (JSON-syntax) string; characters past the BMP as themselves, since
        /// `\u` takes four digits.
        static func quoted(_ c: Unicode.Scalar) -> String {
            switch c {
            case "\"": return "\"\\\"\""
            case "\\": return "\"\\\\\""
            case "\n": return "\"\\n\""
            case "\r": return "\"\\r\""
            case "\t": return "\"\\t\""
            case " "..."~": return "\"" + String(Character(c)) + "\""
            default:
                if c.value > 0xFFFF { return "\"" + String(Character(c)) + "\"" }
                return "\"" + TextEscaping.codePointEscape(c.value) + "\""
            }
        }

        /// A class member in a regex: letters, digits and a few safe marks as themselves, the rest as
        /// `\uXXXX` or `\u{XXXXX}` (read alike by Rust's regex crate, ECMA-262 and XGrammar).
        static func regexMember(_ v: UInt32) -> String {
            if let c = Unicode.Scalar(v), ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
                || " !\"#%',:;<=>@_`".unicodeScalars.contains(c) {
                return String(Character(c))
            }
            if v > 0xFFFF { return "\\u{" + String(v, radix: 16, uppercase: true) + "}" }
            return TextEscaping.codePointEscape(v)
        }
    }

    static func write(_ grammar: TextGrammar, header: [String]) -> String {
        var g = grammar
        for i in g.rules.indices { g.rules[i].body = oneCharacterLexemes(g.rules[i].body) }
        return TextGrammarPrinter(g, style: Style()).print(header: header)
    }

    /// Literals split into one-character literals, inline in their sequence.
    static func oneCharacterLexemes(_ e: TextExpr) -> TextExpr {
        switch e {
        case .text(let t) where t.count > 1:
            return .sequence(t.map { .text([$0]) })
        case .sequence(let parts):
            return .sequence(parts.flatMap { p -> [TextExpr] in
                let q = oneCharacterLexemes(p)
                if case .sequence(let inner) = q { return inner }
                return [q]
            })
        case .choice(let parts):
            return .choice(parts.map(oneCharacterLexemes))
        case .repeat(let body, let lo, let hi):
            return .repeat(oneCharacterLexemes(body), min: lo, max: hi)
        case .empty, .nothing, .text, .set, .rule, .token:
            return e
        }
    }
}
