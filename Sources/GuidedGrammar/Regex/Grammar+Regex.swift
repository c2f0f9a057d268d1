extension Grammar {
    /// A grammar whose sentences are exactly the texts that match `pattern` as a whole (as if it were
    /// written `^(?:pattern)$`), in UTF-8.
    ///
    /// The pattern is read in the grammar dialect (`RegexDialect.grammar`: `.` excludes only `\n`).
    /// Whole-match is what a decoder needs: the output must *be* a match, not contain one. For JSON
    /// Schema's unanchored `pattern` semantics use `RegexLowering.compile(_:dialect: .ecma262)`.
    /// Lookaround, backreferences and anchors inside the pattern are refused, never approximated.
    /// - Throws: `RegexError` with the offset of the offending character.
    public init(regex pattern: String) throws(RegexError) {
        self.init(root: try RegexLowering.compile(pattern, dialect: .grammar))
    }
}
