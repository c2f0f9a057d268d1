/// `tokenizer.ggml.model = "gpt2"`: byte-level BPE (GPT-2, Qwen, Llama 3). Normal tokens and merges are
/// spelled in GPT-2's byte-level alphabet, as in a `tokenizer.json`; CONTROL and USER_DEFINED tokens are
/// their own text (the `added_tokens` of a `tokenizer.json`, special or not). The pre-tokenizer comes from
/// `tokenizer.ggml.pre` (`GGUFPreTokenizer`).
///
/// Encoding matches llama.cpp's `parse_special = false`: USER_DEFINED tokens are always matched whole in
/// the text, CONTROL tokens only on request (`recognizeSpecialTokens`).
enum GGUFByteLevelVocabulary {
    static func tokenizer(_ meta: GGUFMetadataReader, _ tokens: GGUFTokenList) throws(TokenizerError.Problem) -> Tokenizer {
        // llama.cpp reads a missing pre-tokenizer as "default".
        let (preTokenizers, wholeWordFirst) = try GGUFPreTokenizer.steps(try meta.string("tokenizer.ggml.pre") ?? "default")
        guard let merges = try meta.strings("tokenizer.ggml.merges") else { throw .missingMetadata("tokenizer.ggml.merges") }

        let count = tokens.count
        var modelBytes: [UInt8] = []
        var modelOffsets: [UInt32] = [0]
        modelOffsets.reserveCapacity(count + 1)
        var tokenBytes: [UInt8] = []
        var tokenOffsets: [UInt32] = [0]
        tokenOffsets.reserveCapacity(count + 1)
        var isPiece = [Bool](repeating: false, count: count)
        var special: [(bytes: [UInt8], id: Int)] = []
        var userDefined: [(bytes: [UInt8], id: Int)] = []
        for id in 0..<count {
            let text = meta.bytes[tokens.texts[id]]
            switch tokens.type(id) {
            case .control, .unknown, .userDefined:
                guard !text.isEmpty else { throw .invalidVocabulary("token \(id) is empty") }
                tokenBytes.append(contentsOf: text)
                if tokens.type(id) == .userDefined { userDefined.append((Array(text), id)) } else { special.append((Array(text), id)) }
            case .normal, .unused, .byte:
                let start = modelBytes.count
                guard ByteLevelAlphabet.decode(ArraySlice(text), into: &modelBytes) else {
                    throw .invalidVocabulary("token \(id) '\(String(decoding: text, as: UTF8.self))' is not in the byte-level alphabet")
                }
                guard modelBytes.count > start else { throw .invalidVocabulary("token \(id) is empty") }
                tokenBytes.append(contentsOf: modelBytes[start...])
                isPiece[id] = true
            }
            guard modelBytes.count < Int(UInt32.max), tokenBytes.count < Int(UInt32.max) else {
                throw .invalidVocabulary("more than 4 GB of token text")
            }
            modelOffsets.append(UInt32(modelBytes.count))
            tokenOffsets.append(UInt32(tokenBytes.count))
        }
        let table: PieceTable
        do {
            table = try PieceTable(bytes: modelBytes, offsets: modelOffsets) { isPiece[$0] }
        } catch {
            throw .invalidVocabulary("tokens \(error.first) and \(error.second) have the same bytes")
        }
        for b in 0..<256 where table.lookup([UInt8(b)]) < 0 {
            throw .invalidVocabulary("no token for the single byte 0x\(SentencePieceLoader.hex(b)); byte-level BPE needs all 256")
        }
        let pairs = try mergeList(meta, merges, table)

        let bpe = BPEModel(pieces: table, ranking: .pairs(PairTable(pairs)), unit: .byte, wholeWordFirst: wholeWordFirst,
                           byteFallback: nil, fallbackBeforeMerging: true, unknownID: nil, fuseUnknown: false)
        var specialIDs: [String: Int] = [:]
        for t in special { specialIDs[String(decoding: t.bytes, as: UTF8.self)] = t.id }
        // llama.cpp also ends generation at control tokens it knows by name (`<|im_end|>` when the file's EOS
        // is `<|endoftext|>`): the names the tokenizer.json loader uses for the same purpose.
        let named = HuggingFaceLoader.knownEOSNames.compactMap { specialIDs[$0] }
        let eos = Array(Set(tokens.eosIDs + named)).sorted()
        let vocabulary = TokenVocabulary(bytes: tokenBytes, offsets: tokenOffsets, specialTokenIDs: Set(special.map(\.id)),
                                         eosTokenIDs: eos)
        return Tokenizer(format: .gguf, vocabulary: vocabulary, model: bpe, normalizers: [], preTokenizers: preTokenizers,
                         specialTokens: AddedTokenMatcher(special), addedTokens: AddedTokenMatcher(userDefined),
                         decodeStripsLeadingSpace: false, specialTokenIDs: specialIDs)
    }

    /// `tokenizer.ggml.merges` ("left right", in merge order) as (left id, right id, merged id).
    private static func mergeList(_ meta: GGUFMetadataReader, _ merges: [Range<Int>],
                                  _ table: PieceTable) throws(TokenizerError.Problem) -> [(left: Int32, right: Int32, merged: Int32)] {
        var out: [(left: Int32, right: Int32, merged: Int32)] = []
        out.reserveCapacity(merges.count)
        var left: [UInt8] = [], right: [UInt8] = []
        for (rank, range) in merges.enumerated() {
            let text = meta.bytes[range]
            // Byte-level tokens spell a space as 'Ġ', so the one space separates the two halves.
            guard let space = text.firstIndex(of: 0x20), !text[(space + 1)...].contains(0x20) else {
                throw .invalidVocabulary("merge \(rank) '\(String(decoding: text, as: UTF8.self))' is not two tokens separated by one space")
            }
            left.removeAll(keepingCapacity: true)
            right.removeAll(keepingCapacity: true)
            guard ByteLevelAlphabet.decode(ArraySlice(text[..<space]), into: &left),
                  ByteLevelAlphabet.decode(ArraySlice(text[(space + 1)...]), into: &right) else {
                throw .invalidVocabulary("merge \(rank) is not in the byte-level alphabet")
            }
            let l = table.lookup(left), r = table.lookup(right), m = table.lookup(left + right)
            guard l >= 0, r >= 0, m >= 0 else {
                throw .invalidVocabulary("merge \(rank) '\(String(decoding: text, as: UTF8.self))' uses a token that is not in the vocabulary")
            }
            out.append((l, r, m))
        }
        return out
    }
}
