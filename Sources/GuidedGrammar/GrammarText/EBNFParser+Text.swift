/// Strings and character classes of XGrammar's EBNF (escapes as `EBNFParser` lists them).
extension EBNFParserState {
    /// A double-quoted string at `i`, as scalars.
    mutating func parseStringScalars() throws(GrammarSyntaxError) -> [Unicode.Scalar] {
        let open = i
        i += 1
        var out: [Unicode.Scalar] = []
        while true {
            guard let c = current else {
                throw error("unterminated string literal starting at \(src.position(open)): expected '\"'")
            }
            if c == "\"" { i += 1; return out }
            out.append(try parseChar(inClass: false))
        }
    }

    /// One character of a string or class (an escape or a plain scalar) at `i`.
    mutating func parseChar(inClass: Bool) throws(GrammarSyntaxError) -> Unicode.Scalar {
        let context = inClass ? "character class" : "string literal"
        guard let c = current else { throw error("unterminated \(context)") }
        if c == "\n" || c == "\r" { throw error("unterminated \(context): line break before its end") }
        guard c == "\\" else { i += 1; return c }
        let start = i
        i += 1
        guard let e = current else { throw error("unterminated \(context): end of input after '\\'") }
        i += 1
        if inClass && "^$.*+()[]{}|-".unicodeScalars.contains(e) { return e }
        if inClass && "dDwWsS".unicodeScalars.contains(e) {
            throw error("'\\\(Character(e))' is not supported in a character class: write the ranges (e.g. [0-9])", at: start)
        }
        switch e {
        case "\"", "\\", "/", "'", "?": return e
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "a": return "\u{07}"
        case "v": return "\u{0B}"
        case "0": return "\u{00}"
        case "e": return "\u{1B}"
        case "x": return try parseHex(digits: nil, escapeStart: start)
        case "u": return try parseHex(digits: 4, escapeStart: start)
        case "U": return try parseHex(digits: 8, escapeStart: start)
        default:
            throw error("unknown escape '\\\(Character(e))'", at: start)
        }
    }

    mutating func parseHex(digits: Int?, escapeStart: Int) throws(GrammarSyntaxError) -> Unicode.Scalar {
        // `\x` takes every hex digit that follows (XGrammar's reading); the value saturates past U+10FFFF.
        var v: UInt32 = 0
        var n = 0
        while let c = current, let d = SourceText.hexValue(c), n < (digits ?? Int.max) {
            v = min(v << 4 | d, CodePointSet.maxScalar + 1)
            n += 1
            i += 1
        }
        if let digits, n != digits { throw error("expected \(digits) hexadecimal digits in the escape, found \(found)") }
        if n == 0 { throw error("expected hexadecimal digits in the escape, found \(found)") }
        guard v <= CodePointSet.maxScalar else { throw error("escape denotes a value above U+10FFFF", at: escapeStart) }
        guard let s = Unicode.Scalar(v) else {
            throw error("escape denotes a surrogate code point, which UTF-8 cannot encode", at: escapeStart)
        }
        return s
    }

    mutating func parseClass() throws(GrammarSyntaxError) -> GrammarExpr {
        let open = i
        i += 1
        var negated = false
        if current == "^" { negated = true; i += 1 }
        if negated && current == "]" { i += 1; return CodePointSet.all.utf8Expression }
        var ranges: [ClosedRange<UInt32>] = []
        while true {
            guard let c = current else {
                throw error("unterminated character class starting at \(src.position(open)): expected ']'")
            }
            if c == "]" { i += 1; break }
            let loAt = i
            let lo = try parseChar(inClass: true).value
            var hi = lo
            // A '-' between two members is a range; first or last it is itself.
            if current == "-", let next = src[i + 1], next != "]" {
                i += 1
                hi = try parseChar(inClass: true).value
                guard hi >= lo else { throw error("invalid range in character class: the end is before the start", at: loAt) }
            }
            ranges.append(lo...hi)
        }
        if ranges.isEmpty { throw error("empty character class '[]' matches nothing", at: open) }
        let set = CodePointSet(ranges: ranges)
        let members = negated ? set.complement() : set
        if members.isEmpty { throw error("character class matches no character", at: open) }
        return members.utf8Expression
    }

}
