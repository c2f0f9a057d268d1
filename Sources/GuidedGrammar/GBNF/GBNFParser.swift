/// Parser for GBNF, the grammar syntax of llama.cpp, producing a `Grammar` over UTF-8 bytes.
///
/// Syntax:
/// - `name ::= alternatives`, one rule per line; names are `[A-Za-z0-9_-]+`; `root` is the start rule.
///   A rule continues onto the next lines after `::=` or `|`, inside parentheses, and (an extension
///   over llama.cpp) on a following line that starts with `|`.
/// - `a b` sequence, `a | b` alternatives, `( … )` grouping, postfix `?` `*` `+` `{m}` `{m,}` `{m,n}` `{,n}`.
/// - `"literal"` strings and `[…]` / `[^…]` character classes with ranges `a-z`; both take the escapes
///   `\n \r \t \\ \" \' \[ \] \- \^ \xHH \uHHHH \UHHHHHHHH`. Escapes denote code points (as in llama.cpp,
///   `\xE9` is U+00E9, encoded as two UTF-8 bytes).
/// - Classes and `.` are over Unicode scalar values and lower to their UTF-8 byte sequences; a negated
///   class is every scalar value (valid UTF-8, no surrogates) not listed. `.` is any scalar value.
/// - `#` starts a comment that runs to the end of the line.
///
/// Errors (`GBNFError`) give the line, the column and what was expected. Duplicate rule definitions
/// and references to undefined rules are errors. llama.cpp's token references (`<[1000]>`, `<think>`,
/// `!<…>`) are refused with an error: a `Grammar` is over bytes, and a token match cannot be expressed
/// exactly there.
public enum GBNFParser {
    /// Largest number accepted in `{m,n}`.
    public static let maximumRepeatCount = 1_000_000
    /// Deepest nesting of parentheses; deeper is an error rather than a stack overflow.
    public static let maximumNesting = 500
    /// Counted repetitions applied to one element (`x{2}{3}…`): real grammars stack two at most.
    public static let maximumNestedRepetitions = 32

    public static func parse(_ text: String) throws(GBNFError) -> Grammar {
        var p = GBNFParserState(text: text)
        return try p.parseGrammar()
    }
}

struct GBNFParserState {
    let s: [Unicode.Scalar]
    var i = 0
    var grammar = Grammar(startName: "root")
    var ruleIDs: [String: RuleID] = ["root": RuleID(0)]
    /// Where each rule was defined (offset), to report duplicates.
    var definedAt: [RuleID: Int] = [:]
    /// Where each rule was first referenced (offset), to report undefined rules.
    var firstReference: [RuleID: Int] = [:]
    var depth = 0

    init(text: String) { s = Array(text.unicodeScalars) }

    // MARK: Positions and errors

    func error(_ message: String, at offset: Int? = nil) -> GBNFError {
        let at = min(offset ?? i, s.count)
        var line = 1, lineStart = 0
        for k in 0..<at where s[k] == "\n" { line += 1; lineStart = k + 1 }
        return GBNFError(offset: at, line: line, column: at - lineStart + 1, message: message)
    }

    var atEnd: Bool { i >= s.count }
    var current: Unicode.Scalar? { i < s.count ? s[i] : nil }

    /// A readable name for the scalar at the current position.
    var found: String {
        guard let c = current else { return "end of input" }
        switch c {
        case "\n": return "end of line"
        case "\r": return "carriage return"
        case "\t": return "tab"
        default: return "'\(Character(c))'"
        }
    }

    static func isNameChar(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "_"
    }

    /// Skips blanks and comments, and line breaks too when `newlines`.
    mutating func skipSpace(newlines: Bool) {
        while let c = current {
            if c == " " || c == "\t" {
                i += 1
            } else if c == "#" {
                while let d = current, d != "\n" { i += 1 }
            } else if newlines && (c == "\n" || c == "\r") {
                i += 1
            } else {
                return
            }
        }
    }

    // MARK: Rules

    mutating func parseGrammar() throws(GBNFError) -> Grammar {
        skipSpace(newlines: true)
        while !atEnd {
            try parseRule()
            skipSpace(newlines: true)
        }
        guard definedAt[RuleID(0)] != nil else {
            throw error("expected a rule named 'root' (the start rule)", at: s.count)
        }
        for (id, offset) in firstReference.sorted(by: { $0.value < $1.value }) where definedAt[id] == nil {
            throw error("undefined rule '\(grammar[id].name)'", at: offset)
        }
        return grammar
    }

    mutating func parseName() throws(GBNFError) -> String {
        let start = i
        while let c = current, Self.isNameChar(c) { i += 1 }
        guard i > start else { throw error("expected a rule name, found \(found)") }
        var name = ""
        name.unicodeScalars.append(contentsOf: s[start..<i])
        return name
    }

    mutating func ruleID(_ name: String) -> RuleID {
        if let id = ruleIDs[name] { return id }
        let id = grammar.declareRule(name: name)
        ruleIDs[name] = id
        return id
    }

    mutating func parseRule() throws(GBNFError) {
        let start = i
        guard let first = current, Self.isNameChar(first) else {
            throw error("expected a rule name, found \(found) (a rule continues on the next line only after '::=' "
                        + "or '|', inside parentheses, or on a line that starts with '|')")
        }
        let name = try parseName()
        skipSpace(newlines: false)
        guard i + 2 < s.count, s[i] == ":", s[i + 1] == ":", s[i + 2] == "=" else {
            throw error("expected '::=' after rule name '\(name)', found \(found)")
        }
        i += 3
        let id = ruleID(name)
        if let previous = definedAt[id] {
            let p = error("", at: previous)
            throw error("rule '\(name)' is already defined at line \(p.line), column \(p.column)", at: start)
        }
        definedAt[id] = start
        skipSpace(newlines: true)
        let body = try parseAlternatives(nested: false)
        grammar.define(id, as: body)
        skipSpace(newlines: false)
        if let c = current {
            if c == ")" { throw error("unexpected ')' without a matching '('") }
            if c == "\r" { i += 1 }
            guard current == "\n" || atEnd else { throw error("expected end of line after the rule, found \(found)") }
        }
    }

    // MARK: Expressions

    /// Alternatives separated by `|`. Outside parentheses, stops at a line break unless the next
    /// non-blank line starts with `|`.
    mutating func parseAlternatives(nested: Bool) throws(GBNFError) -> GrammarExpr {
        var alternatives = [try parseSequence(nested: nested)]
        while true {
            if current == "|" {
                i += 1
                skipSpace(newlines: true)
                alternatives.append(try parseSequence(nested: nested))
                continue
            }
            if !nested {
                let save = i
                skipSpace(newlines: true)
                if current == "|" { continue }
                i = save
            }
            break
        }
        return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    mutating func parseSequence(nested: Bool) throws(GBNFError) -> GrammarExpr {
        var items: [GrammarExpr] = []
        while let c = current {
            if c == "|" || c == ")" || c == "\n" || c == "\r" { break }
            if c == "*" || c == "+" || c == "?" || c == "{" {
                guard let last = items.popLast() else {
                    throw error("expected an element before '\(Character(c))'")
                }
                items.append(try parsePostfix(last))
            } else {
                items.append(try parseElement())
            }
            skipSpace(newlines: nested)
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    mutating func parsePostfix(_ e: GrammarExpr) throws(GBNFError) -> GrammarExpr {
        let c = s[i]
        i += 1
        switch c {
        case "*": return .repeated(e, min: 0, max: nil)
        case "+": return .repeated(e, min: 1, max: nil)
        case "?": return .repeated(e, min: 0, max: 1)
        default: break
        }
        let open = i - 1
        skipSpace(newlines: false)
        var min = 0
        var max: Int?
        if current == "," {
            i += 1
            skipSpace(newlines: false)
            max = try parseCount()
        } else {
            min = try parseCount()
            skipSpace(newlines: false)
            if current == "," {
                i += 1
                skipSpace(newlines: false)
                max = current == "}" ? nil : try parseCount()
            } else {
                max = min
            }
        }
        skipSpace(newlines: false)
        guard current == "}" else { throw error("expected '}' to close the repetition, found \(found)") }
        i += 1
        if let max, max < min {
            throw error("repetition {\(min),\(max)}: the minimum is greater than the maximum", at: open)
        }
        // Counted repetitions of counted repetitions do not fold; like parentheses, their nesting is bounded
        // (every later stage recurses through it).
        var depth = 0, inner = e
        while case .repeat(let x, _, _) = inner { depth += 1; inner = x }
        if depth >= GBNFParser.maximumNestedRepetitions {
            throw error("more than \(GBNFParser.maximumNestedRepetitions) repetition operators on one element", at: open)
        }
        return .repeated(e, min: min, max: max)
    }

    mutating func parseCount() throws(GBNFError) -> Int {
        let start = i
        var n = 0
        while let c = current, ("0"..."9").contains(c) {
            n = n * 10 + Int(c.value - 48)
            if n > GBNFParser.maximumRepeatCount {
                throw error("repetition count is larger than \(GBNFParser.maximumRepeatCount)", at: start)
            }
            i += 1
        }
        guard i > start else { throw error("expected a number in the repetition, found \(found)") }
        return n
    }

    mutating func parseElement() throws(GBNFError) -> GrammarExpr {
        let c = s[i]
        switch c {
        case "\"":
            return try parseLiteral()
        case "[":
            return try parseClass()
        case ".":
            i += 1
            return CodePointSet.all.utf8Expression
        case "(":
            let open = i
            depth += 1
            defer { depth -= 1 }
            guard depth <= GBNFParser.maximumNesting else {
                throw error("parentheses nested deeper than \(GBNFParser.maximumNesting)")
            }
            i += 1
            skipSpace(newlines: true)
            let body = try parseAlternatives(nested: true)
            skipSpace(newlines: true)
            guard current == ")" else {
                if atEnd { throw error("expected ')' to close the '(' at \(positionText(open)), found end of input") }
                throw error("expected ')' or '|', found \(found)")
            }
            i += 1
            return body
        default:
            if Self.isNameChar(c) {
                let start = i
                let name = try parseName()
                let save = i
                skipSpace(newlines: false)
                if i + 2 < s.count, s[i] == ":", s[i + 1] == ":", s[i + 2] == "=" {
                    throw error("unexpected '::=': a rule definition must start on a new line", at: i)
                }
                i = save
                let id = ruleID(name)
                if firstReference[id] == nil { firstReference[id] = start }
                return .rule(id)
            }
            if c == ":" { throw error("unexpected ':': a rule definition must start on a new line") }
            if c == "!" && i + 1 < s.count && s[i + 1] == "<" {
                throw error("negated token references ('!<…>': any one token but this) are not supported: they read a token of any text "
                    + "as one symbol, bypassing the grammar around it")
            }
            if c == "<" { return try parseToken() }
            throw error("expected an element (a string, a character class, '.', '(' or a rule name), found \(found)")
        }
    }

    /// llama.cpp's token references: `<[id]>`, or `<text>`, the token whose text is exactly `<text>`
    /// (angle brackets included). `i` is at `<`.
    mutating func parseToken() throws(GBNFError) -> GrammarExpr {
        let start = i
        var j = i + 1
        while j < s.count, s[j] != ">", s[j] != "\n", s[j] != "<" { j += 1 }
        guard j < s.count, s[j] == ">", j > i + 1 else {
            throw error("expected '>' to end the token reference started here", at: start)
        }
        i = j + 1
        let inner = String(String.UnicodeScalarView(s[(start + 1)..<j]))
        if inner.hasPrefix("[") {
            guard inner.hasSuffix("]"), let id = Int(inner.dropFirst().dropLast()), id >= 0, id <= Int(UInt32.max) else {
                throw error("a token id is written <[N]> with N a non-negative integer", at: start)
            }
            return .token(.id(id))
        }
        return .token(.text("<" + inner + ">"))
    }

    func positionText(_ offset: Int) -> String {
        let p = error("", at: offset)
        return "line \(p.line), column \(p.column)"
    }

    // MARK: Literals and classes

    /// One character of a literal or class: an escape or a plain scalar. `i` is at it.
    mutating func parseChar(in context: String) throws(GBNFError) -> UInt32 {
        let c = s[i]
        if c == "\n" || c == "\r" { throw error("unterminated \(context): line break before its end") }
        guard c == "\\" else { i += 1; return c.value }
        let start = i
        i += 1
        guard let e = current else { throw error("unterminated \(context): end of input after '\\'") }
        i += 1
        switch e {
        case "n": return 0x0A
        case "r": return 0x0D
        case "t": return 0x09
        case "\\", "\"", "'", "[", "]", "-", "^": return e.value
        case "x": return try parseHex(digits: 2, escapeStart: start)
        case "u": return try parseHex(digits: 4, escapeStart: start)
        case "U": return try parseHex(digits: 8, escapeStart: start)
        default:
            throw error("unknown escape '\\\(Character(e))' (expected one of \\n \\r \\t \\\\ \\\" \\' \\[ \\] \\- \\^ \\x \\u \\U)", at: start)
        }
    }

    mutating func parseHex(digits: Int, escapeStart: Int) throws(GBNFError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<digits {
            guard let c = current, let d = Self.hexValue(c) else {
                throw error("expected \(digits) hexadecimal digits in the escape, found \(found)")
            }
            v = v << 4 | d
            i += 1
        }
        if CodePointSet.surrogates.contains(v) {
            throw error("escape denotes a surrogate code point, which UTF-8 cannot encode", at: escapeStart)
        }
        if v > CodePointSet.maxScalar {
            throw error("escape denotes a value above U+10FFFF", at: escapeStart)
        }
        return v
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 48
        case "a"..."f": return c.value - 87
        case "A"..."F": return c.value - 55
        default: return nil
        }
    }

    mutating func parseLiteral() throws(GBNFError) -> GrammarExpr {
        let open = i
        i += 1
        var bytes: [UInt8] = []
        while true {
            guard let c = current else {
                throw error("unterminated string literal starting at \(positionText(open)): expected '\"'")
            }
            if c == "\"" { i += 1; break }
            // parseChar only returns scalar values (surrogates and values past U+10FFFF are errors).
            let scalar = Unicode.Scalar(try parseChar(in: "string literal"))!
            bytes += Array(String(Character(scalar)).utf8)
        }
        return bytes.isEmpty ? .empty : .bytes(bytes)
    }

    mutating func parseClass() throws(GBNFError) -> GrammarExpr {
        let open = i
        i += 1
        var negated = false
        if current == "^" { negated = true; i += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        while true {
            guard let c = current else {
                throw error("unterminated character class starting at \(positionText(open)): expected ']'")
            }
            if c == "]" { i += 1; break }
            let loAt = i
            let lo = try parseChar(in: "character class")
            var hi = lo
            if current == "-", i + 1 < s.count, s[i + 1] != "]" {
                i += 1
                hi = try parseChar(in: "character class")
                guard hi >= lo else { throw error("invalid range in character class: the end is before the start", at: loAt) }
            }
            ranges.append(lo...hi)
        }
        if ranges.isEmpty && !negated { throw error("empty character class '[]' matches nothing", at: open) }
        let set = CodePointSet(ranges: ranges)
        let members = negated ? set.complement() : set
        if members.isEmpty { throw error("character class matches no character", at: open) }
        return members.utf8Expression
    }
}
