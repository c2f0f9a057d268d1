enum HuggingFaceLoader {
    static func load(data: [UInt8], file: String) throws(TokenizerError) -> Tokenizer {
        throw TokenizerError(file: file, .unsupported("tokenizer.json loading is not implemented yet"))
    }
}
