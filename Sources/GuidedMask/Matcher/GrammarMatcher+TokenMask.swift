extension GrammarMatcher {
    /// The allowed next tokens as a `TokenMask` (a new array per call). The same answer as
    /// `fillNextTokenMask(into:)`, which the decode loop uses to avoid the allocation.
    /// - Throws: a sticky error (see `fillNextTokenMask(into:)`).
    public mutating func nextTokenMask() throws(MatcherError) -> TokenMask {
        var words = [UInt32](repeating: 0, count: maskWordCount)
        try fillNextTokenMask(into: &words)
        return TokenMask(words: words, tokenCount: compiled.vocabulary.vocabulary.size)
    }
}
