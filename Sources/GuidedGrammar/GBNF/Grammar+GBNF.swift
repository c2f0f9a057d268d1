extension Grammar {
    /// Parses a grammar in GBNF, the llama.cpp grammar syntax; `root` is the start rule.
    /// See `GBNFParser` for the accepted syntax.
    public init(gbnf text: String) throws(GBNFError) {
        self = try GBNFParser.parse(text)
    }
}
