/// Regexes inside grammar texts: Lark's `/…/flags` and XGrammar's `Regex("…", flags=…)`, matched whole,
/// read by `RegexParser` with the meanings of `.` and `\d \w \s` the language gives them, and with the
/// flags applied to the parsed pattern.
enum GrammarTextRegex {
    struct Flags {
        /// ASCII letters match either case.
        var caseInsensitive = false
        /// `.` also matches `\n`.
        var dotAll = false
    }

    /// `\d`, `\w`, `\s` as Rust's regex crate reads them (Unicode: `Nd`; alphabetic, marks, `Nd`, `Pc`
    /// and join controls; `White_Space`), which llguidance's Lark regexes follow.
    static let rustClasses: (digit: CodePointSet, word: CodePointSet, space: CodePointSet) = {
        var word: [ClosedRange<UInt32>] = []
        var v: UInt32 = 0
        while v <= CodePointSet.maxScalar {
            if v == 0xD800 { v = 0xE000; continue }
            let p = Unicode.Scalar(v)!.properties
            let isWord = p.isAlphabetic || p.isJoinControl
                || [.nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation].contains(p.generalCategory)
            if isWord {
                if let last = word.last, last.upperBound + 1 == v { word[word.count - 1] = last.lowerBound...v } else { word.append(v...v) }
            }
            v += 1
        }
        let digit = UnicodeProperties.set(named: "Nd") ?? .regexDigit
        let space = CodePointSet(ranges: [0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
                                          0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000])
        return (digit, CodePointSet(ranges: word), space)
    }()

    /// The pattern as an expression over bytes, matched whole.
    /// - Parameters:
    ///   - dot: what `.` matches without the `s` flag.
    ///   - rust: Rust's Unicode `\d \w \s` instead of ECMA-262's ASCII ones.
    ///   - allowed: a set every character must also be in (XGrammar's `json_string=true`).
    static func compile(_ pattern: String, flags: Flags, dot: CodePointSet, rust: Bool,
                        allowed: CodePointSet? = nil) throws(RegexError) -> GrammarExpr {
        var classes = RegexParser.Classes(.grammar)
        classes.dot = flags.dotAll ? .all : dot
        // The Unicode tables are built once, on the first pattern that can use them.
        if rust && pattern.unicodeScalars.contains("\\") { (classes.digit, classes.word, classes.space) = rustClasses }
        var node = try RegexParser.parse(pattern, dialect: .grammar, classes: classes)
        if flags.caseInsensitive { node = node.mappingSets { $0.withASCIICaseVariants() } }
        if let allowed { node = node.mappingSets { $0.intersection(allowed) } }
        return try RegexLowering.lower(node, semantics: .wholeMatch, innerAnchors: false)
    }
}

extension RegexNode {
    /// Every literal and set replaced by `transform` of its set (a literal is a one-member set).
    func mappingSets(_ transform: (CodePointSet) -> CodePointSet) -> RegexNode {
        switch self {
        case .empty, .startAnchor, .endAnchor: return self
        case .literal(let c): return .set(transform(CodePointSet(c)))
        case .set(let s): return .set(transform(s))
        case .sequence(let parts): return .sequence(parts.map { $0.mappingSets(transform) })
        case .alternation(let parts): return .alternation(parts.map { $0.mappingSets(transform) })
        case .group(let n, let capturing): return .group(n.mappingSets(transform), capturing: capturing)
        case .repeat(let n, let lo, let hi, let lazy): return .repeat(n.mappingSets(transform), min: lo, max: hi, lazy: lazy)
        case .lookaround(let n, let ahead, let negative, let o):
            return .lookaround(n.mappingSets(transform), ahead: ahead, negative: negative, offset: o)
        }
    }
}

extension CodePointSet {
    /// The set with the other case of each ASCII letter in it.
    func withASCIICaseVariants() -> CodePointSet {
        var extra: [ClosedRange<UInt32>] = []
        for r in ranges {
            let upper = r.clamped(to: 0x41...0x5A), lower = r.clamped(to: 0x61...0x7A)
            if r.overlaps(0x41...0x5A) { extra.append((upper.lowerBound + 32)...(upper.upperBound + 32)) }
            if r.overlaps(0x61...0x7A) { extra.append((lower.lowerBound - 32)...(lower.upperBound - 32)) }
        }
        return extra.isEmpty ? self : CodePointSet(ranges: ranges + extra)
    }
}
