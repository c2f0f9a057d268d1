import GuidedSchema

/// A token of a Lark grammar text; `at` is its offset in scalars.
struct LarkToken {
    enum Kind: Equatable {
        /// One or more line breaks (they end a definition unless the next line starts with `|`).
        case newline
        /// A rule (`start`, `_item`) or terminal (`NUMBER`) name.
        case name(String)
        /// `"…"` with its `i` flag.
        case string(String, caseInsensitive: Bool)
        /// `/…/flags`: the pattern with `\/` turned into `/`.
        case regex(String, flags: String)
        case number(String)
        /// `%ignore`, `%import`, …
        case directive(String)
        /// `<…>`: a special token.
        case special(String)
        /// `@name`: another grammar.
        case grammarReference(String)
        /// Punctuation and operators: `: , . .. -> ( ) { } [ ] ~ | & = + * ? !`.
        case punct(String)
        case end
    }

    var kind: Kind
    var at: Int
    /// The JSON object after `%json`, `%regex`, `%llguidance` or `%grammar_options`.
    var json: JSONValue? = nil
}

/// Splits a Lark grammar into tokens: blanks and comments (`//` and `#` to the end of the line) are
/// skipped, line breaks kept.
struct LarkLexer {
    let src: SourceText
    var i = 0

    init(_ src: SourceText) { self.src = src }

    static func tokenize(_ src: SourceText) throws(GrammarSyntaxError) -> [LarkToken] {
        var lexer = LarkLexer(src)
        var tokens: [LarkToken] = []
        while true {
            let t = try lexer.next()
            tokens.append(t)
            if t.kind == .end { return tokens }
        }
    }

    func error(_ message: String, at offset: Int? = nil) -> GrammarSyntaxError { src.error(message, at: offset ?? i) }

    static func isNameChar(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
    }

    mutating func next() throws(GrammarSyntaxError) -> LarkToken {
        // Blanks and comments.
        while let c = src[i] {
            if c == " " || c == "\t" {
                i += 1
            } else if c == "#" || (c == "/" && src[i + 1] == "/") {
                while let d = src[i], d != "\n", d != "\r" { i += 1 }
            } else {
                break
            }
        }
        let start = i
        guard let c = src[i] else { return LarkToken(kind: .end, at: i) }
        if c == "\n" || c == "\r" {
            while let d = src[i], d == "\n" || d == "\r" || d == " " || d == "\t" { i += 1 }
            return LarkToken(kind: .newline, at: start)
        }
        if ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" {
            while let d = src[i], Self.isNameChar(d) { i += 1 }
            return LarkToken(kind: .name(src.text(start..<i)), at: start)
        }
        if ("0"..."9").contains(c) {
            while let d = src[i], ("0"..."9").contains(d) { i += 1 }
            // A fraction (`0.7`), not a range (`2..5`).
            if src[i] == ".", let d = src[i + 1], ("0"..."9").contains(d) {
                i += 1
                while let d = src[i], ("0"..."9").contains(d) { i += 1 }
            }
            return LarkToken(kind: .number(src.text(start..<i)), at: start)
        }
        switch c {
        case "\"": return try string()
        case "/": return try regex()
        case "%": return try directive()
        case "<": return try special()
        case "@":
            i += 1
            while let d = src[i], Self.isNameChar(d) { i += 1 }
            guard i > start + 1 else { throw error("expected a grammar name after '@'", at: start) }
            return LarkToken(kind: .grammarReference(src.text((start + 1)..<i)), at: start)
        case "-":
            guard src[i + 1] == ">" else { throw error("unexpected '-' (an alias is written '->')") }
            i += 2
            return LarkToken(kind: .punct("->"), at: start)
        case ".":
            if src[i + 1] == "." { i += 2; return LarkToken(kind: .punct(".."), at: start) }
            i += 1
            return LarkToken(kind: .punct("."), at: start)
        case ":", ",", "(", ")", "{", "}", "[", "]", "~", "|", "&", "=", "+", "*", "?", "!":
            i += 1
            return LarkToken(kind: .punct(String(Character(c))), at: start)
        default:
            throw error("unexpected character \(src.found(i))")
        }
    }

    /// `"…"`: JSON string escapes and `\xHH`; then an optional `i`.
    mutating func string() throws(GrammarSyntaxError) -> LarkToken {
        let open = i
        i += 1
        var value = ""
        while true {
            guard let c = src[i] else { throw error("unterminated string starting at \(src.position(open)): expected '\"'") }
            if c == "\"" { i += 1; break }
            if c == "\n" || c == "\r" { throw error("unterminated string: line break before its end") }
            if c.value < 0x20 || c.value == 0x7F {
                throw error("control character U+\(String(c.value, radix: 16, uppercase: true)) in a string: write it as an escape")
            }
            guard c == "\\" else { value.unicodeScalars.append(c); i += 1; continue }
            let escape = i
            i += 1
            guard let e = src[i] else { throw error("unterminated string: end of input after '\\'") }
            i += 1
            switch e {
            case "\"", "\\", "/": value.unicodeScalars.append(e)
            case "b": value += "\u{08}"
            case "f": value += "\u{0C}"
            case "n": value += "\n"
            case "r": value += "\r"
            case "t": value += "\t"
            case "x", "u":
                let digits = e == "x" ? 2 : 4
                var v: UInt32 = 0
                for _ in 0..<digits {
                    guard let h = src[i], let d = SourceText.hexValue(h) else {
                        throw error("expected \(digits) hexadecimal digits in the escape, found \(src.found(i))")
                    }
                    v = v << 4 | d
                    i += 1
                }
                // A UTF-16 surrogate pair, as JSON writes characters past the BMP.
                if (0xD800...0xDBFF).contains(v), src[i] == "\\", src[i + 1] == "u" {
                    var low: UInt32 = 0
                    var ok = true
                    for k in 0..<4 {
                        guard let h = src[i + 2 + k], let d = SourceText.hexValue(h) else { ok = false; break }
                        low = low << 4 | d
                    }
                    if ok && (0xDC00...0xDFFF).contains(low) {
                        v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                guard let s = Unicode.Scalar(v) else {
                    throw error("escape denotes a lone surrogate, which UTF-8 cannot encode", at: escape)
                }
                value.unicodeScalars.append(s)
            default:
                throw error("unknown escape '\\\(Character(e))' in a string", at: escape)
            }
        }
        var caseInsensitive = false
        if src[i] == "i", !(src[i + 1].map(Self.isNameChar) ?? false) { caseInsensitive = true; i += 1 }
        return LarkToken(kind: .string(value, caseInsensitive: caseInsensitive), at: open)
    }

    /// `/…/flags`.
    mutating func regex() throws(GrammarSyntaxError) -> LarkToken {
        let open = i
        i += 1
        var pattern = ""
        while true {
            guard let c = src[i], c != "\n", c != "\r" else {
                throw error("unterminated regex starting at \(src.position(open)): expected '/'")
            }
            if c == "/" { i += 1; break }
            if c == "\\", let d = src[i + 1] {
                if d != "/" { pattern.unicodeScalars.append(c) }
                pattern.unicodeScalars.append(d)
                i += 2
                continue
            }
            pattern.unicodeScalars.append(c)
            i += 1
        }
        if pattern.isEmpty { throw error("empty regex '//'", at: open) }
        let flagsStart = i
        while let c = src[i], ("a"..."z").contains(c) { i += 1 }
        return LarkToken(kind: .regex(pattern, flags: src.text(flagsStart..<i)), at: open)
    }

    /// `%name`, and the JSON object that follows the directives that take one.
    mutating func directive() throws(GrammarSyntaxError) -> LarkToken {
        let start = i
        i += 1
        while let d = src[i], Self.isNameChar(d) { i += 1 }
        let name = src.text(start..<i)
        guard ["%json", "%regex", "%llguidance", "%grammar_options"].contains(name) else {
            return LarkToken(kind: .directive(name), at: start)
        }
        while let d = src[i], d == " " || d == "\t" || d == "\n" || d == "\r" { i += 1 }
        guard src[i] == "{" else { throw error("expected a JSON object after \(name), found \(src.found(i))") }
        let open = i
        // The object's extent: balanced braces and brackets outside strings.
        var depth = 0
        var inString = false
        while let d = src[i] {
            i += 1
            if inString {
                if d == "\\" { i += 1 } else if d == "\"" { inString = false }
                continue
            }
            if d == "\"" { inString = true } else if d == "{" || d == "[" { depth += 1 } else if d == "}" || d == "]" {
                depth -= 1
                if depth == 0 { break }
            }
        }
        guard depth == 0 else { throw error("unterminated JSON object after \(name) (starting at \(src.position(open)))") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(src.text(open..<i))
        } catch {
            throw self.error("the JSON after \(name) is not valid: \(error)", at: open)
        }
        return LarkToken(kind: .directive(name), at: start, json: value)
    }

    /// `<…>`: a special token by name (`<|im_end|>`) or by id (`<[128009]>`).
    mutating func special() throws(GrammarSyntaxError) -> LarkToken {
        let start = i
        i += 1
        while let d = src[i], d != ">", d != "<", !d.properties.isWhitespace { i += 1 }
        guard src[i] == ">", i > start + 1 else { throw error("expected '>' to end the special token started at \(src.position(start))") }
        i += 1
        return LarkToken(kind: .special(src.text(start..<i)), at: start)
    }
}
