extension ReferenceRecognizer {
    /// For each byte string, whether the input followed by it is a complete sentence: `accepts` for
    /// every string, with the work for common prefixes shared as in `viable(_:order:)` (strings and
    /// their near misses share long prefixes, which is how the differential tests feed them).
    public func acceptsEach(_ strings: [[UInt8]]) -> [Bool] {
        walk(strings, order: Self.lexicographicOrder(strings)) { ok, last in ok && last.accepting }.verdicts
    }

    /// `acceptsEach` in bounded work: past `maximumItems` Earley items over all the strings, it stops with
    /// `.workLimitExceeded` (the recognizer is cubic in the string's length on ambiguous grammars).
    public func acceptsEach(_ strings: [[UInt8]], maximumItems: Int) throws(ReferenceRecognizerError) -> [Bool] {
        let (verdicts, finished) = walk(strings, order: Self.lexicographicOrder(strings), maximumItems: maximumItems) {
            ok, last in ok && last.accepting
        }
        guard finished else { throw .workLimitExceeded(limit: maximumItems) }
        return verdicts
    }
}
