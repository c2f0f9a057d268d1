extension Grammar {
    /// Whether `text` (its UTF-8 bytes) is a complete sentence of the grammar.
    ///
    /// Answered by `ReferenceRecognizer`, the Earley oracle the mask engine is tested against: exact,
    /// with no vocabulary and no compilation, but slow (fine for checks and tests, not per token).
    /// - Throws: `ReferenceRecognizerError` for grammars the recognizer does not read (member-set
    ///   guards, which JSON Schema's `propertyOrder: .memberSets` produces); `CompiledGrammar.accepts`
    ///   answers those.
    public func accepts(text: String) throws(ReferenceRecognizerError) -> Bool {
        try accepts(bytes: Array(text.utf8))
    }

    /// Whether `bytes` are a complete sentence of the grammar (see `accepts(text:)`).
    public func accepts(bytes: some Sequence<UInt8>) throws(ReferenceRecognizerError) -> Bool {
        try ReferenceRecognizer(self).accepts(bytes)
    }
}
