/// A `pattern` that opens with lookaheads at its start, `^(?!X)(?=Y)Rest`, split into its parts.
///
/// Lookaheads make a pattern's language no longer a regular expression's, but one at the start of the
/// input is an intersection or a difference of regular languages, which the lowering builds exactly
/// with automata (ECMA-262, 22.2.2.4): `^(?=X)R` matches the strings that match `^R` and also start with a
/// match of `X`; `^(?!X)R` those that match `^R` and do not start with one. Any other lookaround (one
/// after the first character, a lookbehind) is still refused by the regex reader.
struct LeadingLookaheads {
    struct Lookahead: Equatable {
        /// `(?!`: the string must not start with a match of `body`.
        var negative: Bool
        /// The pattern that must (not) match at the start: `^(?:X)`, with a final `$` of X moved outside
        /// the group (the regex reader takes anchors only at the ends of the pattern).
        var pattern: String
    }

    var lookaheads: [Lookahead]
    /// The pattern after the lookaheads, anchored: `^Rest`.
    var rest: String

    /// Nil unless `source` is `^`, then at least one lookahead group, then the rest, with no `|` at the top
    /// level: in `^(?!X)A|B` the lookahead belongs to the first alternative only.
    init?(_ source: String) {
        let s = Array(source.unicodeScalars)
        guard s.first == "^" else { return nil }
        var i = 1
        var found: [Lookahead] = []
        while i + 3 < s.count, s[i] == "(", s[i + 1] == "?", s[i + 2] == "=" || s[i + 2] == "!" {
            guard let close = Self.groupEnd(s, from: i) else { return nil }
            let body = String(String.UnicodeScalarView(s[(i + 3)..<close]))
            guard let pattern = Self.startPattern(body) else { return nil }
            found.append(Lookahead(negative: s[i + 2] == "!", pattern: pattern))
            i = close + 1
        }
        let rest = Array(s[i...])
        guard !found.isEmpty, !Self.hasTopLevelBar(rest) else { return nil }
        lookaheads = found
        self.rest = "^" + String(String.UnicodeScalarView(rest))
    }

    /// `^(?:body)`, or `^(?:body minus its final $)$` (a body ending in an unescaped `$` at its top level, with
    /// no `|` there). Nil for a body with a top-level `|` and a `$` in it: kept refused.
    private static func startPattern(_ body: String) -> String? {
        let b = Array(body.unicodeScalars)
        if let last = b.last, last == "$", !escaped(b, at: b.count - 1), !hasTopLevelBar(b) {
            return "^(?:" + String(String.UnicodeScalarView(b.dropLast())) + ")$"
        }
        if b.contains("$") && hasTopLevelBar(b) { return nil }
        return "^(?:" + body + ")"
    }

    /// The index of the `)` closing the group opened at `open`.
    private static func groupEnd(_ s: [Unicode.Scalar], from open: Int) -> Int? {
        firstStructural(s, from: open) { c, depth in c == ")" && depth == 0 }
    }

    /// Whether `s` has a `|` outside every group and character class.
    private static func hasTopLevelBar(_ s: [Unicode.Scalar]) -> Bool {
        firstStructural(s, from: 0) { c, depth in c == "|" && depth == 0 } != nil
    }

    /// The first index from `start` whose character, outside escapes and character classes, satisfies
    /// `found` given the group depth after it.
    private static func firstStructural(_ s: [Unicode.Scalar], from start: Int, _ found: (Unicode.Scalar, Int) -> Bool) -> Int? {
        var depth = 0, i = start, inClass = false
        while i < s.count {
            let c = s[i]
            if c == "\\" {
                i += 2
                continue
            }
            if inClass {
                if c == "]" { inClass = false }
            } else if c == "[" {
                inClass = true
            } else {
                if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
                if found(c, depth) { return i }
            }
            i += 1
        }
        return nil
    }

    /// Whether the character at `index` is escaped (an odd number of backslashes before it).
    private static func escaped(_ s: [Unicode.Scalar], at index: Int) -> Bool {
        var k = index - 1, n = 0
        while k >= 0, s[k] == "\\" { n += 1; k -= 1 }
        return n % 2 == 1
    }
}
