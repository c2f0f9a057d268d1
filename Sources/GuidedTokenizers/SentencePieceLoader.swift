enum SentencePieceLoader {
    static func load(data: [UInt8], file: String) throws(TokenizerError) -> Tokenizer {
        throw TokenizerError(file: file, .unsupported("SentencePiece loading is not implemented yet"))
    }
}
