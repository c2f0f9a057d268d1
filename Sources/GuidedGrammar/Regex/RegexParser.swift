/// A recursive-descent parser from a regex pattern to a `RegexNode`.
///
/// Both dialects share the syntax of ECMA-262 with the `u` flag, plus the web-compatible literal
/// readings of a `{`, `}` or `]` that cannot start or end anything (also what PCRE does), so common
/// JSON Schema patterns parse. Everything that is not regular (lookaround, backreferences, `\b`) or
/// whose meaning differs between engines (`[[:alpha:]]`, `{,n}`, inline flags) is refused with a
/// `RegexError` giving the scalar offset. Nesting depth and repeat counts are bounded, so no input
/// can crash or hang the parser.
public struct RegexParser {
    /// Maximum group nesting depth.
    public static let maxDepth = 256
    /// Maximum `{m,n}` count.
    public static let maxRepeatCount = 100_000

    let chars: [Unicode.Scalar]
    let dialect: RegexDialect
    /// What `.`, `\d`, `\w` and `\s` match (the dialect's, unless a grammar front end says otherwise).
    var classes: Classes
    var pos = 0
    var depth = 0
    /// Lookaround groups become `.lookaround` nodes instead of errors.
    var lookaround = false

    init(chars: [Unicode.Scalar], dialect: RegexDialect, classes: Classes? = nil) {
        self.chars = chars
        self.dialect = dialect
        self.classes = classes ?? Classes(dialect)
    }

    /// The sets of `.` and of the class escapes. Grammar languages differ here: Lark regexes follow
    /// Rust's regex crate (Unicode `\d \w \s`), XGrammar's `Regex(…)` without flags lets `.` match
    /// every character.
    struct Classes {
        var dot: CodePointSet
        var digit = CodePointSet.regexDigit
        var word = CodePointSet.regexWord
        var space = CodePointSet.regexSpace

        init(_ dialect: RegexDialect) { dot = dialect.dotSet }
    }

    /// Parses `pattern` in `dialect`.
    public static func parse(_ pattern: String, dialect: RegexDialect = .grammar) throws(RegexError) -> RegexNode {
        try parse(pattern, dialect: dialect, classes: nil)
    }

    /// Parses `pattern` in `dialect`, reading lookaround groups as `.lookaround` nodes.
    static func parse(_ pattern: String, dialect: RegexDialect, lookaround: Bool) throws(RegexError) -> RegexNode {
        try parse(pattern, dialect: dialect, classes: nil, lookaround: lookaround)
    }

    /// Parses `pattern` in `dialect` with other meanings of `.` and the class escapes.
    static func parse(_ pattern: String, dialect: RegexDialect, classes: Classes?, lookaround: Bool = false) throws(RegexError) -> RegexNode {
        var p = RegexParser(chars: Array(pattern.unicodeScalars), dialect: dialect, classes: classes)
        p.lookaround = lookaround
        let node = try p.parseAlternation()
        if p.pos < p.chars.count {
            // Only `)` can stop an alternation at top level.
            throw RegexError(offset: p.pos, kind: .syntax, "unmatched `)`")
        }
        return node
    }

    // MARK: - Structure

    private var atEnd: Bool { pos >= chars.count }
    private var peek: Unicode.Scalar? { pos < chars.count ? chars[pos] : nil }
    private func peek(_ k: Int) -> Unicode.Scalar? { pos + k < chars.count ? chars[pos + k] : nil }

    private mutating func parseAlternation() throws(RegexError) -> RegexNode {
        var alternatives = [try parseSequence()]
        while peek == "|" {
            pos += 1
            alternatives.append(try parseSequence())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseSequence() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek, c != "|", c != ")" {
            let atomStart = pos
            var atom = try parseAtom()
            atom = try parseQuantifiers(atom, atomStart: atomStart)
            items.append(atom)
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    private mutating func parseQuantifiers(_ atom: RegexNode, atomStart: Int) throws(RegexError) -> RegexNode {
        guard let q = peek else { return atom }
        let qStart = pos
        var bounds: (Int, Int?)
        switch q {
        case "*": pos += 1; bounds = (0, nil)
        case "+": pos += 1; bounds = (1, nil)
        case "?": pos += 1; bounds = (0, 1)
        case "{":
            guard let b = try parseBraceQuantifier() else { return atom }
            bounds = b
        default: return atom
        }
        if case .startAnchor = atom { throw RegexError(offset: qStart, kind: .syntax, "nothing to repeat before `\(q)` (an anchor cannot be repeated)") }
        if case .endAnchor = atom { throw RegexError(offset: qStart, kind: .syntax, "nothing to repeat before `\(q)` (an anchor cannot be repeated)") }
        var lazy = false
        if peek == "?" { pos += 1; lazy = true }
        if let next = peek, next == "*" || next == "+" || next == "?" || (next == "{" && braceQuantifierAhead()) {
            throw RegexError(offset: pos, kind: .syntax, "nothing to repeat before `\(next)` (a quantifier cannot follow a quantifier)")
        }
        return .repeat(atom, min: bounds.0, max: bounds.1, lazy: lazy)
    }

    /// Whether a valid `{m}`, `{m,}` or `{m,n}` starts at `pos`.
    private func braceQuantifierAhead() -> Bool {
        var copy = self
        return (try? copy.parseBraceQuantifier()) != nil
    }

    /// Parses `{m}`, `{m,}`, `{m,n}` at `pos`; nil (position unchanged) when the brace is a literal.
    private mutating func parseBraceQuantifier() throws(RegexError) -> (Int, Int?)? {
        let start = pos
        var i = pos + 1
        func digits(_ i: inout Int) -> String {
            var s = ""
            while i < chars.count, ("0"..."9").contains(chars[i]) { s.unicodeScalars.append(chars[i]); i += 1 }
            return s
        }
        let minText = digits(&i)
        if minText.isEmpty {
            if i < chars.count, chars[i] == "," {
                var j = i + 1
                if !digits(&j).isEmpty, j < chars.count, chars[j] == "}" {
                    throw RegexError(offset: start, kind: .unsupported, "`{,n}` is a literal in ECMA-262 but a quantifier in other engines; write `{0,n}` or `\\{`")
                }
            }
            return nil
        }
        var maxText: String? = minText
        if i < chars.count, chars[i] == "," {
            i += 1
            let t = digits(&i)
            maxText = t.isEmpty ? nil : t
        }
        guard i < chars.count, chars[i] == "}" else { return nil }
        let lo = try count(minText, at: start)
        var hi: Int? = nil
        if let maxText {
            hi = try count(maxText, at: start)
            if hi! < lo {
                throw RegexError(offset: start, kind: .syntax, "numbers out of order in `{\(minText),\(maxText)}` quantifier")
            }
        }
        pos = i + 1
        return (lo, hi)
    }

    private func count(_ text: String, at offset: Int) throws(RegexError) -> Int {
        guard text.count <= 9, let v = Int(text), v <= Self.maxRepeatCount else {
            throw RegexError(offset: offset, kind: .limit, "repeat count \(text) exceeds the limit of \(Self.maxRepeatCount)")
        }
        return v
    }

    // MARK: - Atoms

    private mutating func parseAtom() throws(RegexError) -> RegexNode {
        let start = pos
        let c = chars[pos]
        switch c {
        case "(": return try parseGroup()
        case "[": return .set(try parseClass())
        case ".": pos += 1; return .set(classes.dot)
        case "^": pos += 1; return .startAnchor(offset: start)
        case "$": pos += 1; return .endAnchor(offset: start)
        case "\\": return try parseEscape()
        case "*", "+", "?":
            throw RegexError(offset: start, kind: .syntax, "nothing to repeat before `\(c)`")
        case "{":
            if braceQuantifierAhead() {
                throw RegexError(offset: start, kind: .syntax, "nothing to repeat before `{`")
            }
            _ = try parseBraceQuantifier()  // reports `{,n}`
            pos += 1
            return .literal(c)
        default:
            pos += 1
            return .literal(c)
        }
    }

    private mutating func parseGroup() throws(RegexError) -> RegexNode {
        let start = pos
        pos += 1
        var capturing = true
        var look: (ahead: Bool, negative: Bool)? = nil
        if peek == "?" {
            let kindStart = pos
            switch (peek(1), peek(2)) {
            case (":", _): pos += 2; capturing = false
            case ("=", _), ("!", _):
                look = (true, peek(1) == "!")
                guard lookaround else { throw RegexLowering.lookaroundError(ahead: true, negative: look!.negative, offset: start) }
                pos += 2
            case ("<", "="), ("<", "!"):
                look = (false, peek(2) == "!")
                guard lookaround else { throw RegexLowering.lookaroundError(ahead: false, negative: look!.negative, offset: start) }
                pos += 3
            case ("<", _):
                pos += 2
                var name = ""
                while let ch = peek, ch != ">" {
                    guard ch == "_" || ch == "$" || ch.properties.isAlphabetic || (!name.isEmpty && ch.properties.numericType != nil) else {
                        throw RegexError(offset: pos, kind: .syntax, "invalid character `\(ch)` in group name")
                    }
                    name.unicodeScalars.append(ch)
                    pos += 1
                }
                guard peek == ">", !name.isEmpty else {
                    throw RegexError(offset: pos, kind: .syntax, atEnd ? "unterminated group name, expected `>`" : "empty group name")
                }
                pos += 1
            case (nil, _):
                throw RegexError(offset: kindStart + 1, kind: .syntax, "unexpected end of pattern after `(?`")
            case (let ch?, _):
                throw RegexError(offset: start, kind: .unsupported, "group syntax `(?\(ch)` (inline flags or modifiers) is not supported")
            }
        }
        depth += 1
        if depth > Self.maxDepth {
            throw RegexError(offset: start, kind: .limit, "groups nested deeper than \(Self.maxDepth)")
        }
        let inner = try parseAlternation()
        depth -= 1
        guard peek == ")" else {
            throw RegexError(offset: start, kind: .syntax, "missing `)` for the group opened here")
        }
        pos += 1
        if let look { return .lookaround(inner, ahead: look.ahead, negative: look.negative, offset: start) }
        return .group(inner, capturing: capturing)
    }

    // MARK: - Escapes

    /// One escape outside a class: a literal or a class.
    private mutating func parseEscape() throws(RegexError) -> RegexNode {
        let start = pos
        guard let c = peek(1) else {
            throw RegexError(offset: start, kind: .syntax, "`\\` at end of pattern")
        }
        switch c {
        case "b": throw RegexError(offset: start, kind: .unsupported, "word boundary `\\b` is not supported")
        case "B": throw RegexError(offset: start, kind: .unsupported, "non-word-boundary `\\B` is not supported")
        case "1"..."9": throw RegexError(offset: start, kind: .unsupported, "backreference `\\\(c)` is not supported (not regular)")
        case "k": throw RegexError(offset: start, kind: .unsupported, "named backreference `\\k` is not supported (not regular)")
        default: break
        }
        switch try parseClassOrCharEscape(inClass: false) {
        case .scalar(let s): return s.map { .literal($0) } ?? .set(.empty)
        case .set(let s): return .set(s)
        }
    }

    enum EscapeValue {
        /// A single character (nil: a lone surrogate, which no valid text contains).
        case scalar(Unicode.Scalar?)
        case set(CodePointSet)
    }

    /// Parses the escape at `pos` (which is `\`), shared by classes and atoms.
    private mutating func parseClassOrCharEscape(inClass: Bool) throws(RegexError) -> EscapeValue {
        let start = pos
        guard let c = peek(1) else {
            throw RegexError(offset: start, kind: .syntax, "`\\` at end of pattern")
        }
        pos += 2
        switch c {
        case "d": return .set(classes.digit)
        case "D": return .set(classes.digit.complement())
        case "w": return .set(classes.word)
        case "W": return .set(classes.word.complement())
        case "s": return .set(classes.space)
        case "S": return .set(classes.space.complement())
        case "p", "P": return .set(try parseProperty(negated: c == "P", start: start))
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "t": return .scalar("\t")
        case "v": return .scalar("\u{0B}")
        case "f": return .scalar("\u{0C}")
        case "b" where inClass: return .scalar("\u{08}")
        case "-" where inClass: return .scalar("-")
        case "0":
            if let d = peek, ("0"..."9").contains(d) {
                throw RegexError(offset: start, kind: .unsupported, "octal escape `\\0\(d)` is not supported")
            }
            return .scalar("\u{0}")
        case "c":
            guard let l = peek, ("a"..."z").contains(l) || ("A"..."Z").contains(l) else {
                throw RegexError(offset: start, kind: .syntax, "`\\c` must be followed by a letter")
            }
            pos += 1
            return .scalar(Unicode.Scalar(l.value % 32)!)
        case "x":
            let v = try hexDigits(count: 2, start: start, what: "`\\x` needs two hex digits")
            return .scalar(Unicode.Scalar(v)!)
        case "u":
            return .scalar(try parseUnicodeEscape(start: start))
        default:
            if c.isASCII, c.properties.isAlphabetic || ("0"..."9").contains(c) {
                throw RegexError(offset: start, kind: .syntax, "unknown escape `\\\(c)`")
            }
            return .scalar(c)
        }
    }

    private mutating func hexDigits(count: Int, start: Int, what: String) throws(RegexError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<count {
            guard let h = peek, let d = h.hexValue else {
                throw RegexError(offset: start, kind: .syntax, what)
            }
            v = v * 16 + d
            pos += 1
        }
        return v
    }

    /// `\uHHHH` (with surrogate pairs combined) or `\u{H...}`; `pos` is after `\u`.
    private mutating func parseUnicodeEscape(start: Int) throws(RegexError) -> Unicode.Scalar? {
        if peek == "{" {
            pos += 1
            var v: UInt32 = 0
            var n = 0
            while let h = peek, let d = h.hexValue {
                v = v &* 16 &+ d
                n += 1
                pos += 1
                if n > 8 || v > CodePointSet.maxScalar {
                    throw RegexError(offset: start, kind: .syntax, "`\\u{...}` value is beyond U+10FFFF")
                }
            }
            guard n > 0, peek == "}" else {
                throw RegexError(offset: start, kind: .syntax, "`\\u{` needs hex digits and a closing `}`")
            }
            pos += 1
            return Unicode.Scalar(v)
        }
        let v = try hexDigits(count: 4, start: start, what: "`\\u` needs four hex digits or `{...}`")
        if (0xD800...0xDBFF).contains(v), peek == "\\", peek(1) == "u" {
            // A high surrogate followed by a low one is one astral character.
            let save = pos
            pos += 2
            if let low = try? hexDigits(count: 4, start: start, what: ""), (0xDC00...0xDFFF).contains(low) {
                return Unicode.Scalar(0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00))
            }
            pos = save
        }
        return Unicode.Scalar(v)  // nil for a lone surrogate
    }

    /// `\p{Name}` / `\P{Name}`; `pos` is after the `p`.
    private mutating func parseProperty(negated: Bool, start: Int) throws(RegexError) -> CodePointSet {
        guard peek == "{" else {
            throw RegexError(offset: start, kind: .syntax, "`\\p` needs a property name in braces, like `\\p{L}`")
        }
        pos += 1
        var name = ""
        while let ch = peek, ch != "}" { name.unicodeScalars.append(ch); pos += 1 }
        guard peek == "}" else {
            throw RegexError(offset: start, kind: .syntax, "unterminated `\\p{`")
        }
        pos += 1
        guard let set = UnicodeProperties.set(named: name) else {
            throw RegexError(offset: start, kind: .unsupported, "unknown or unsupported Unicode property `\(name)`")
        }
        return negated ? set.complement() : set
    }

    // MARK: - Classes

    private mutating func parseClass() throws(RegexError) -> CodePointSet {
        let start = pos
        pos += 1
        var negated = false
        if peek == "^" { negated = true; pos += 1 }
        if peek == "]" {
            // ECMA-262 reads `[]` as the empty class and `[^]` as any character; PCRE, ICU, Python and
            // Rust read the `]` as a literal member. Refused rather than guessing which was meant.
            throw RegexError(offset: start, kind: .unsupported, "`[\(negated ? "^" : "")]` means an empty class in ECMA-262 but starts a class containing `]` in other engines; escape the `]` or write `[^\\s\\S]`/`[\\s\\S]`")
        }
        var ranges: [ClosedRange<UInt32>] = []
        var set = CodePointSet()
        while true {
            guard let c = peek else {
                throw RegexError(offset: start, kind: .syntax, "missing `]` for the class opened here")
            }
            if c == "]" { pos += 1; break }
            let itemStart = pos
            let first = try parseClassAtom()
            // A range `a-b`, unless the `-` is last.
            if peek == "-", let after = peek(1), after != "]" {
                pos += 1
                let secondStart = pos
                let second = try parseClassAtom()
                guard case .scalar(let lo) = first, case .scalar(let hi) = second else {
                    throw RegexError(offset: itemStart, kind: .syntax, "a class escape like `\\d` cannot be a range end")
                }
                let loV = lo?.value ?? surrogateValue(at: itemStart), hiV = hi?.value ?? surrogateValue(at: secondStart)
                guard loV <= hiV else {
                    throw RegexError(offset: itemStart, kind: .syntax, "range out of order in character class")
                }
                ranges.append(loV...hiV)
            } else {
                switch first {
                case .scalar(let s): if let s { ranges.append(s.value...s.value) }
                case .set(let s): set = set.union(s)
                }
            }
        }
        set = set.union(CodePointSet(ranges: ranges))
        return negated ? set.complement() : set
    }

    /// The value of a lone-surrogate escape at `offset` (re-read: classes may contain ranges of them).
    private func surrogateValue(at offset: Int) -> UInt32 {
        var copy = self
        copy.pos = offset + 2
        return (try? copy.hexDigits(count: 4, start: offset, what: "")) ?? 0xD800
    }

    private mutating func parseClassAtom() throws(RegexError) -> EscapeValue {
        let c = chars[pos]
        if c == "\\" {
            if peek(1) == "B" { throw RegexError(offset: pos, kind: .syntax, "`\\B` is not valid in a character class") }
            if let d = peek(1), ("1"..."9").contains(d) {
                throw RegexError(offset: pos, kind: .unsupported, "escape `\\\(d)` in a class is not supported (backreference or octal)")
            }
            if peek(1) == "k" { throw RegexError(offset: pos, kind: .unsupported, "named backreference `\\k` is not supported (not regular)") }
            return try parseClassOrCharEscape(inClass: true)
        }
        if c == "[", let n = peek(1), n == ":" || n == "=" || n == "." {
            throw RegexError(offset: pos, kind: .unsupported, "POSIX class syntax `[\(n)` is not supported (ECMA-262 reads it as literal characters); escape the `[`")
        }
        pos += 1
        return .scalar(c)
    }
}

extension Unicode.Scalar {
    /// The value of an ASCII hex digit.
    var hexValue: UInt32? {
        switch self {
        case "0"..."9": return value - 0x30
        case "a"..."f": return value - 0x61 + 10
        case "A"..."F": return value - 0x41 + 10
        default: return nil
        }
    }
}
