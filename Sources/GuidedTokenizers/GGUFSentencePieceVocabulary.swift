/// `tokenizer.ggml.model = "llama"`: a SentencePiece BPE vocabulary (Llama 2, Mistral, Gemma). The pieces,
/// scores and types are those of the `.model` it was converted from, so it is turned back into a
/// `SentencePieceModel` and built by the same code as a `.model` file.
///
/// What the `.model` says in its trainer and normalizer specs, the GGUF says in keys, with llama.cpp's
/// defaults when absent: `add_space_prefix` (true), `remove_extra_whitespaces` (false); byte fallback is on
/// when all 256 `<0xNN>` BYTE pieces are present (llama.cpp falls back to them whenever they exist).
enum GGUFSentencePieceVocabulary {
    static func tokenizer(_ meta: GGUFMetadataReader, _ tokens: GGUFTokenList) throws(TokenizerError.Problem) -> Tokenizer {
        var model = SentencePieceModel()
        model.modelType = 2 // BPE
        let scores = try meta.float32s("tokenizer.ggml.scores")
        if let scores, scores.count != tokens.count {
            throw .invalidVocabulary("tokenizer.ggml.scores has \(scores.count) entries for \(tokens.count) tokens")
        }
        model.pieces.reserveCapacity(tokens.count)
        var bytesSeen = Set<UInt8>()
        for id in 0..<tokens.count {
            let piece = SentencePieceModel.Piece(text: Array(meta.bytes[tokens.texts[id]]), score: scores?[id] ?? 0,
                                                 type: tokens.type(id))
            if piece.type == .byte, let b = SentencePieceLoader.byteValue(piece.text) { bytesSeen.insert(b) }
            model.pieces.append(piece)
        }
        model.byteFallback = bytesSeen.count == 256
        let unk = try meta.tokenID("tokenizer.ggml.unknown_token_id", below: tokens.count)
        model.unkID = unk ?? model.pieces.firstIndex { $0.type == .unknown } ?? -1
        model.eosID = tokens.eosIDs.first ?? -1
        model.addDummyPrefix = try meta.bool("tokenizer.ggml.add_space_prefix") ?? true
        model.removeExtraWhitespaces = try meta.bool("tokenizer.ggml.remove_extra_whitespaces") ?? false
        model.escapeWhitespaces = true
        if meta.hasNonEmpty("tokenizer.ggml.precompiled_charsmap") {
            model.hasPrecompiledCharsmap = true
            model.normalizerName = "tokenizer.ggml.precompiled_charsmap"
        }
        return try model.makeTokenizer().fromGGUF(eos: tokens.eosIDs)
    }
}
