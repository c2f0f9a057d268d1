extension Grammar {
    /// A grammar whose sentences are exactly the texts that match `pattern` as a whole (as if it were
    /// written `^(?:pattern)$`), in UTF-8.
    ///
    /// The pattern is read in the grammar dialect (`RegexDialect.grammar`: `.` excludes only `\n`).
    /// Whole-match is what a decoder needs: the output must *be* a match, not contain one. For JSON
    /// Schema's unanchored `pattern` semantics use `RegexLowering.compile(_:dialect: .ecma262)`.
    /// `^` and `$` may stand anywhere (they mean the text's start and end). Lookaround and backreferences
    /// are refused, never approximated.
    /// - Throws: `RegexError` with the offset of the offending character.
    public init(regex pattern: String) throws(RegexError) {
        self.init(root: try RegexLowering.compile(pattern, dialect: .grammar))
    }

    /// A grammar for one segment of a larger text (a structural tag's `regex`): matched whole like
    /// `init(regex:)`, but anchors inside the pattern are refused, since there they would mean the
    /// segment's start and end, not the text's.
    init(segmentRegex pattern: String) throws(RegexError) {
        let node = try RegexParser.parse(pattern, dialect: .grammar)
        self.init(root: try RegexLowering.lower(node, semantics: .wholeMatch, innerAnchors: false))
    }
}
