/// A parsed SentencePiece BPE model as a `Tokenizer`: what `SentencePieceLoader` does after the protobuf,
/// shared with the GGUF loader (a GGUF "llama" vocabulary carries the same pieces, scores and types).
extension SentencePieceModel {
    func makeTokenizer() throws(TokenizerError.Problem) -> Tokenizer {
        guard !self.pieces.isEmpty else { throw .invalidVocabulary("no pieces") }
        // Scores order the merges; a NaN has no place in that order (SentencePiece's own comparisons
        // would be inconsistent).
        if let bad = self.pieces.firstIndex(where: { $0.score.isNaN }) {
            throw .invalidVocabulary("piece \(bad) has a score that is not a number (NaN)")
        }
        switch self.modelType {
        case 2: break
        case 1: throw .unknownModelType("UNIGRAM (only BPE SentencePiece models are supported)")
        case 3: throw .unknownModelType("WORD (only BPE SentencePiece models are supported)")
        case 4: throw .unknownModelType("CHAR (only BPE SentencePiece models are supported)")
        default: throw .unknownModelType("\(self.modelType)")
        }
        guard !self.hasPrecompiledCharsmap else {
            throw .unsupported("normalizer '\(self.normalizerName)' with a precompiled character map (only identity normalization is reproduced)")
        }
        guard !self.treatWhitespaceAsSuffix else { throw .unsupported("treat_whitespace_as_suffix") }
        if let unused = self.pieces.firstIndex(where: { $0.type == .unused }) {
            throw .unsupported("UNUSED piece \(unused) (BPE re-segmentation of unused pieces is not implemented)")
        }

        // Model-space pieces (what merges see) and emitted bytes (what the vocabulary holds).
        var modelBytes: [UInt8] = []
        var modelOffsets: [UInt32] = [0]
        var tokenBytes: [UInt8] = []
        var tokenOffsets: [UInt32] = [0]
        var special = Set<Int>()
        var byteIDs = [Int32](repeating: -1, count: 256)
        var userDefined: [(bytes: [UInt8], id: Int)] = []
        for (id, p) in self.pieces.enumerated() {
            modelBytes.append(contentsOf: p.text)
            modelOffsets.append(UInt32(modelBytes.count))
            switch p.type {
            case .byte:
                guard let b = SentencePieceLoader.byteValue(p.text) else {
                    throw .invalidVocabulary("BYTE piece \(id) is '\(String(decoding: p.text, as: UTF8.self))', not <0xNN>")
                }
                tokenBytes.append(b)
                if byteIDs[Int(b)] < 0 { byteIDs[Int(b)] = Int32(id) }
            case .control, .unknown:
                special.insert(id)
                tokenBytes.append(contentsOf: p.text)
            case .normal, .userDefined, .unused:
                tokenBytes.append(contentsOf: Normalizer.replaceAll(p.text, SentencePieceLoader.metaspace, [0x20]))
                if p.type == .userDefined { userDefined.append((p.text, id)) }
            }
            tokenOffsets.append(UInt32(tokenBytes.count))
        }
        let table: PieceTable
        do {
            table = try PieceTable(bytes: modelBytes, offsets: modelOffsets) { id in
                let t = self.pieces[id].type
                return t == .normal || t == .userDefined || t == .unused
            }
        } catch {
            throw .invalidVocabulary("pieces \(error.first) and \(error.second) are the same")
        }
        // Scores to ranks: higher score merges first; equal scores share a rank (then leftmost wins).
        let ranks = SentencePieceLoader.ranks(ofScores: self.pieces.map(\.score))

        if self.byteFallback, let missing = byteIDs.firstIndex(of: -1) {
            throw .invalidVocabulary("byte_fallback is on but there is no piece <0x\(SentencePieceLoader.hex(missing))>")
        }
        let count = self.pieces.count
        let unk: Int32? = (0..<count).contains(self.unkID) ? Int32(self.unkID) : nil
        guard self.byteFallback || unk != nil else {
            throw .invalidVocabulary("no unknown piece and no byte fallback")
        }
        var bpe = BPEModel(pieces: table, ranking: .concatenationWithPairs(RankTable(ranks), PairTable(splitting: table, ranks: ranks)), unit: .character,
                           wholeWordFirst: false, byteFallback: self.byteFallback ? byteIDs : nil,
                           fallbackBeforeMerging: false, unknownID: unk, fuseUnknown: true,
                           userDefined: userDefined.isEmpty ? nil : AddedTokenMatcher(userDefined))
        // The text is one word; cut it at whitespace where that provably keeps the ids (WordCuts.swift).
        _ = bpe.enableWordCuts(before: self.escapeWhitespaces ? SentencePieceLoader.metaspace : [0x20])
        var normalizers: [Normalizer] = []
        if self.removeExtraWhitespaces { normalizers.append(.collapseSpaces) }
        if self.escapeWhitespaces { normalizers.append(.replace([0x20], with: SentencePieceLoader.metaspace)) }
        if self.addDummyPrefix { normalizers.append(.prepend(self.escapeWhitespaces ? SentencePieceLoader.metaspace : [0x20])) }

        var specialIDs: [String: Int] = [:]
        for id in special.sorted() { specialIDs[String(decoding: self.pieces[id].text, as: UTF8.self)] = id }
        let eos = (0..<count).contains(self.eosID) ? [self.eosID] : []
        let vocabulary = TokenVocabulary(bytes: tokenBytes, offsets: tokenOffsets, specialTokenIDs: special, eosTokenIDs: eos)
        let controls = special.filter { self.pieces[$0].type == .control }.map { (bytes: self.pieces[$0].text, id: $0) }
        return Tokenizer(format: .sentencePiece, vocabulary: vocabulary, model: bpe, normalizers: normalizers,
                         preTokenizers: [], specialTokens: AddedTokenMatcher(controls), addedTokens: AddedTokenMatcher([]),
                         decodeStripsLeadingSpace: self.addDummyPrefix && self.escapeWhitespaces,
                         specialTokenIDs: specialIDs)
    }
}
