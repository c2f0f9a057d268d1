/// Loads a SentencePiece `.model` (BPE models only) into a `Tokenizer` that reproduces
/// `SentencePieceProcessor.encode` (no BOS/EOS added): dummy prefix, whitespace as '▁', merges by piece score
/// (highest first, leftmost on ties), byte fallback for unknown characters.
enum SentencePieceLoader {
    static let metaspace: [UInt8] = Array("\u{2581}".utf8)

    static func load(data: [UInt8], file: String) throws(TokenizerError) -> Tokenizer {
        guard !data.isEmpty else { throw TokenizerError(file: file, .emptyFile) }
        let parsed = data.withUnsafeBufferPointer { d in
            Result { () throws(ProtobufReader.Failure) in try SentencePieceModel.parse(d) }
        }
        let model: SentencePieceModel
        switch parsed {
        case .success(let m): model = m
        case .failure(let f): throw TokenizerError(file: file, .malformedProtobuf(offset: f.offset, f.message))
        }
        guard !model.pieces.isEmpty else { throw TokenizerError(file: file, .malformedProtobuf(offset: 0, "no pieces")) }
        switch model.modelType {
        case 2: break
        case 1: throw TokenizerError(file: file, .unknownModelType("UNIGRAM (only BPE SentencePiece models are supported)"))
        case 3: throw TokenizerError(file: file, .unknownModelType("WORD (only BPE SentencePiece models are supported)"))
        case 4: throw TokenizerError(file: file, .unknownModelType("CHAR (only BPE SentencePiece models are supported)"))
        default: throw TokenizerError(file: file, .unknownModelType("\(model.modelType)"))
        }
        guard !model.hasPrecompiledCharsmap else {
            throw TokenizerError(file: file, .unsupported("normalizer '\(model.normalizerName)' with a precompiled character map (only identity normalization is reproduced)"))
        }
        guard !model.treatWhitespaceAsSuffix else { throw TokenizerError(file: file, .unsupported("treat_whitespace_as_suffix")) }
        if let unused = model.pieces.firstIndex(where: { $0.type == .unused }) {
            throw TokenizerError(file: file, .unsupported("UNUSED piece \(unused) (BPE re-segmentation of unused pieces is not implemented)"))
        }

        // Model-space pieces (what merges see) and emitted bytes (what the vocabulary holds).
        var modelBytes: [UInt8] = []
        var modelOffsets: [UInt32] = [0]
        var tokenBytes: [UInt8] = []
        var tokenOffsets: [UInt32] = [0]
        var special = Set<Int>()
        var byteIDs = [Int32](repeating: -1, count: 256)
        var userDefined: [(bytes: [UInt8], id: Int)] = []
        for (id, p) in model.pieces.enumerated() {
            modelBytes.append(contentsOf: p.text)
            modelOffsets.append(UInt32(modelBytes.count))
            switch p.type {
            case .byte:
                guard let b = Self.byteValue(p.text) else {
                    throw TokenizerError(file: file, .invalidVocabulary("BYTE piece \(id) is '\(String(decoding: p.text, as: UTF8.self))', not <0xNN>"))
                }
                tokenBytes.append(b)
                if byteIDs[Int(b)] < 0 { byteIDs[Int(b)] = Int32(id) }
            case .control, .unknown:
                special.insert(id)
                tokenBytes.append(contentsOf: p.text)
            case .normal, .userDefined, .unused:
                tokenBytes.append(contentsOf: Normalizer.replaceAll(p.text, Self.metaspace, [0x20]))
                if p.type == .userDefined { userDefined.append((p.text, id)) }
            }
            tokenOffsets.append(UInt32(tokenBytes.count))
        }
        let table: PieceTable
        do {
            table = try PieceTable(bytes: modelBytes, offsets: modelOffsets) { id in
                let t = model.pieces[id].type
                return t == .normal || t == .userDefined || t == .unused
            }
        } catch {
            throw TokenizerError(file: file, .invalidVocabulary("pieces \(error.first) and \(error.second) are the same"))
        }
        // Scores to ranks: higher score merges first; equal scores share a rank (then leftmost wins).
        // A NaN has no place in that order (SentencePiece's own comparisons would be inconsistent).
        if let bad = model.pieces.firstIndex(where: { $0.score.isNaN }) {
            throw TokenizerError(file: file, .invalidVocabulary("piece \(bad) has a score that is not a number (NaN)"))
        }
        let ranks = Self.ranks(ofScores: model.pieces.map(\.score))

        if model.byteFallback, let missing = byteIDs.firstIndex(of: -1) {
            throw TokenizerError(file: file, .invalidVocabulary("byte_fallback is on but there is no piece <0x\(hex(missing))>"))
        }
        let count = model.pieces.count
        let unk: Int32? = (0..<count).contains(model.unkID) ? Int32(model.unkID) : nil
        guard model.byteFallback || unk != nil else {
            throw TokenizerError(file: file, .invalidVocabulary("no unknown piece and no byte fallback"))
        }
        var bpe = BPEModel(pieces: table, ranking: .concatenationWithPairs(RankTable(ranks), PairTable(splitting: table, ranks: ranks)), unit: .character,
                           wholeWordFirst: false, byteFallback: model.byteFallback ? byteIDs : nil,
                           fallbackBeforeMerging: false, unknownID: unk, fuseUnknown: true,
                           userDefined: userDefined.isEmpty ? nil : AddedTokenMatcher(userDefined))
        // The text is one word; cut it at whitespace where that provably keeps the ids (WordCuts.swift).
        _ = bpe.enableWordCuts(before: model.escapeWhitespaces ? Self.metaspace : [0x20])
        var normalizers: [Normalizer] = []
        if model.removeExtraWhitespaces { normalizers.append(.collapseSpaces) }
        if model.escapeWhitespaces { normalizers.append(.replace([0x20], with: Self.metaspace)) }
        if model.addDummyPrefix { normalizers.append(.prepend(model.escapeWhitespaces ? Self.metaspace : [0x20])) }

        var specialIDs: [String: Int] = [:]
        for id in special.sorted() { specialIDs[String(decoding: model.pieces[id].text, as: UTF8.self)] = id }
        let eos = (0..<count).contains(model.eosID) ? [model.eosID] : []
        let vocabulary = TokenVocabulary(bytes: tokenBytes, offsets: tokenOffsets, specialTokenIDs: special, eosTokenIDs: eos)
        let controls = special.filter { model.pieces[$0].type == .control }.map { (bytes: model.pieces[$0].text, id: $0) }
        return Tokenizer(format: .sentencePiece, vocabulary: vocabulary, model: bpe, normalizers: normalizers,
                         preTokenizers: [], specialTokens: AddedTokenMatcher(controls), addedTokens: AddedTokenMatcher([]),
                         decodeStripsLeadingSpace: model.addDummyPrefix && model.escapeWhitespaces,
                         specialTokenIDs: specialIDs)
    }

    /// Dense ranks of scores, highest first, equal scores sharing a rank. Scores must not be NaN.
    static func ranks(ofScores scores: [Float]) -> [UInt32] {
        let order = scores.indices.sorted { scores[$0] > scores[$1] }
        var ranks = [UInt32](repeating: 0, count: scores.count)
        var rank: UInt32 = 0
        for (k, id) in order.enumerated() {
            if k > 0 && scores[id] != scores[order[k - 1]] { rank += 1 }
            ranks[id] = rank
        }
        return ranks
    }

    /// The byte of a `<0xNN>` piece.
    static func byteValue(_ text: [UInt8]) -> UInt8? {
        guard text.count == 6, text[0] == 0x3C, text[1] == 0x30, text[2] == 0x78, text[5] == 0x3E,
              let v = UInt8(String(decoding: text[3..<5], as: UTF8.self), radix: 16) else { return nil }
        return v
    }

    static func hex(_ b: Int) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}
