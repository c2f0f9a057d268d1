/// What differs between the text grammar languages when a `TextGrammar` is printed.
protocol TextGrammarStyle {
    /// The start rule's name (`root`, `start`).
    var startName: String { get }
    /// Turns a rule's name into one the language allows (unique names are the printer's job).
    func identifier(_ name: String) -> String
    /// What tells apart the n-th rule whose name came out the same (`-2`, `_2`).
    func uniqueSuffix(_ n: Int) -> String
    /// A literal of one or more scalars.
    func literal(_ text: [Unicode.Scalar]) -> String
    /// One scalar of a set with at least two members.
    func characterClass(_ set: CodePointSet) -> String
    /// The empty text.
    var emptyText: String { get }
    /// `name ::= ` or `name: `.
    func definitionHead(_ name: String) -> String
    /// Between alternatives of a rule's top-level choice when they go on separate lines.
    var lineBreakBetweenAlternatives: String { get }
    var commentPrefix: String { get }
    /// A token terminal, or nil when the language cannot name it.
    func token(_ t: TokenReference) -> String?
    /// Why the language cannot name `t` (when `token(t)` is nil).
    func tokenRefusal(_ t: TokenReference) -> String
}

extension TextGrammarStyle {
    /// llama.cpp's GBNF and llguidance's Lark: `<[id]>`, or the token's text when it is `<…>` (both
    /// name a token by its text written between the angle brackets, the brackets being part of it).
    func angleBracketToken(_ t: TokenReference) -> String? {
        if t.fallsBackToText { return nil }
        switch t.target {
        case .id(let id): return "<[\(id)]>"
        case .text(let text):
            // `<[…>` reads back as a token id (`<[N]>`), so a text starting so has no written form.
            guard text.hasPrefix("<"), text.hasSuffix(">"), text.count > 2, !text.hasPrefix("<["),
                  !text.dropFirst().dropLast().contains(where: { $0 == ">" || $0 == "<" || $0.isNewline }) else { return nil }
            return text
        }
    }

    func angleBracketRefusal(_ t: TokenReference) -> String {
        if t.fallsBackToText {
            return "the token \(t) stands for its text when the vocabulary has no such token: that depends on the vocabulary (write the grammar for one vocabulary, with the token's id)"
        }
        if case .text(let text) = t.target, text.hasPrefix("<[") {
            return "the token \(t) can only be named by id here (<[id]>): its text starts with <[, which reads as a token id"
        }
        return "the token \(t) can only be named by id here (<[id]>): its text is not of the form <…>"
    }
}

/// Prints a `TextGrammar` in a `TextGrammarStyle`: the start rule first, one definition per rule, a
/// long top-level choice one alternative per line.
struct TextGrammarPrinter<Style: TextGrammarStyle> {
    let style: Style
    let grammar: TextGrammar
    var names: [String] = []

    init(_ grammar: TextGrammar, style: Style) {
        var grammar = grammar
        for i in grammar.rules.indices { grammar.rules[i].body = Self.optionals(grammar.rules[i].body) }
        grammar = grammar.shallow()
        self.grammar = grammar
        self.style = style
        var used: Set<String> = [style.startName]
        for (i, rule) in grammar.rules.enumerated() {
            if i == grammar.start { names.append(style.startName); continue }
            var base = style.identifier(rule.name)
            if base.isEmpty { base = style.identifier("r") }
            var name = base
            var n = 2
            while used.contains(name) { name = base + style.uniqueSuffix(n); n += 1 }
            used.insert(name)
            names.append(name)
        }
    }

    func print(header: [String]) -> String {
        var out = header.map { style.commentPrefix + " " + $0 + "\n" }.joined()
        var order = [grammar.start]
        order += grammar.rules.indices.filter { $0 != grammar.start }
        for r in order {
            out += style.definitionHead(names[r])
            if case .choice(let alternatives) = grammar.rules[r].body, alternatives.count > 3 {
                out += alternatives.map { sequence($0) }.joined(separator: style.lineBreakBetweenAlternatives)
            } else {
                out += expression(grammar.rules[r].body)
            }
            out += "\n"
        }
        return out
    }

    /// A choice with an empty alternative written as an optional: `("" | x)` as `x?`.
    static func optionals(_ e: TextExpr) -> TextExpr {
        switch e {
        case .choice(let parts):
            let rest = parts.filter { $0 != .empty }.map(optionals)
            let choice: TextExpr = rest.count == 1 ? rest[0] : .choice(rest)
            return rest.count < parts.count ? .repeat(choice, min: 0, max: 1) : choice
        case .sequence(let parts): return .sequence(parts.map(optionals))
        case .repeat(let body, let lo, let hi): return .repeat(optionals(body), min: lo, max: hi)
        case .empty, .nothing, .text, .set, .rule, .token: return e
        }
    }

    func expression(_ e: TextExpr) -> String {
        if case .choice(let alternatives) = e { return alternatives.map { sequence($0) }.joined(separator: " | ") }
        return sequence(e)
    }

    func sequence(_ e: TextExpr) -> String {
        if case .sequence(let parts) = e { return parts.map { item($0) }.joined(separator: " ") }
        return item(e)
    }

    func item(_ e: TextExpr) -> String {
        guard case .repeat(let body, let lo, let hi) = e else { return atom(e) }
        let suffix: String
        switch (lo, hi) {
        case (0, 1?): suffix = "?"
        case (0, nil): suffix = "*"
        case (1, nil): suffix = "+"
        case (let m, nil): suffix = "{\(m),}"
        case (let m, let n?) where m == n: suffix = "{\(m)}"
        case (let m, let n?): suffix = "{\(m),\(n)}"
        }
        // A repetition of a repetition needs its own parentheses (`"a"++` is an error in EBNF).
        if case .repeat = body { return "(" + item(body) + ")" + suffix }
        return atom(body) + suffix
    }

    func atom(_ e: TextExpr) -> String {
        switch e {
        case .empty: return style.emptyText
        case .nothing: return "(" + style.characterClass(CodePointSet()) + ")"
        case .text(let t): return style.literal(t)
        case .set(let s): return style.characterClass(s)
        case .rule(let r): return names[r]
        // `exported(as:)` checked that the style writes every token of the grammar.
        case .token(let t): return style.token(t) ?? "<unwritable \(t)>"
        case .sequence, .choice, .repeat: return "(" + expression(e) + ")"
        }
    }
}

/// Escapes shared by the writers.
enum TextEscaping {
    /// `\uXXXX` (BMP) or `\UXXXXXXXX`, as GBNF and EBNF write code points.
    static func codePointEscape(_ v: UInt32) -> String {
        let hex = String(v, radix: 16, uppercase: true)
        if v <= 0xFFFF { return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex }
        return "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// A GBNF/EBNF string literal: printable ASCII as is, `"` and `\` escaped, the rest as escapes.
    static func quoted(_ text: [Unicode.Scalar]) -> String {
        var s = "\""
        for c in text {
            switch c {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            case " "..."~": s.unicodeScalars.append(c)
            default: s += codePointEscape(c.value)
            }
        }
        return s + "\""
    }

    /// A GBNF/EBNF character class: positive ranges, or the complement's when that has fewer ranges.
    /// Printable ASCII is written as is except the class's own syntax characters.
    static func bracketClass(_ set: CodePointSet) -> String {
        let complement = set.complement()
        let negated = !complement.isEmpty && complement.ranges.count < set.ranges.count
        let ranges = negated ? complement.ranges : set.ranges
        var s = negated ? "[^" : "["
        for r in ranges {
            s += classMember(r.lowerBound)
            if r.upperBound > r.lowerBound {
                if r.upperBound > r.lowerBound + 1 { s += "-" }
                s += classMember(r.upperBound)
            }
        }
        return s + "]"
    }

    static func classMember(_ v: UInt32) -> String {
        switch v {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x5B, 0x5D, 0x5C, 0x2D, 0x5E: return codePointEscape(v)   // [ ] \ - ^
        case 0x20...0x7E: return String(Character(Unicode.Scalar(v)!))
        default: return codePointEscape(v)
        }
    }
}
