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
        do { return try model.makeTokenizer() } catch { throw TokenizerError(file: file, error) }
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
