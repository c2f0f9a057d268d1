extension CompiledGrammar {
    /// Whether `text` (its UTF-8 bytes) is a complete sentence of the grammar, as the mask engine
    /// decides it: a fresh matcher accepts the bytes and can end there.
    ///
    /// Unlike `Grammar.accepts(text:)` (the Earley reference) this reads every grammar the engine
    /// compiles, member-set objects included, and is fast; the token vocabulary plays no part.
    /// - Throws: a limit error of the matcher (`MatcherError`), never for text that merely does not match.
    public func accepts(text: String) throws(MatcherError) -> Bool {
        try accepts(bytes: text.utf8)
    }

    /// Whether `bytes` are a complete sentence of the grammar (see `accepts(text:)`).
    public func accepts(bytes: some Sequence<UInt8>) throws(MatcherError) -> Bool {
        var matcher = GrammarMatcher(self)
        do {
            try matcher.accept(bytes: Array(bytes))
        } catch {
            if case .bytesRejected = error { return false }
            throw error
        }
        return matcher.canTerminate
    }
}
