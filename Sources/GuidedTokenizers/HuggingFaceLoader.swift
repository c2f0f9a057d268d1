import PCRE2Kit

/// Loads a Hugging Face `tokenizer.json` with a BPE model: byte-level (GPT-2 / Qwen / Llama-3 style) or
/// Metaspace `▁` with byte fallback (Llama-2 / Mistral style). Anything the file asks for that cannot be
/// reproduced exactly (another model type, an unknown normalizer, BPE dropout, ...) is refused with an error.
///
/// Encoding never adds BOS/EOS (the `post_processor` is not applied), like `encode(add_special_tokens=False)`.
enum HuggingFaceLoader {
    /// Ids at or above this are refused, in the model's vocabulary and in `added_tokens` alike.
    static let maxTokenID = 10_000_000
    static func load(data: [UInt8], file: String) throws(TokenizerError) -> Tokenizer {
        guard !data.isEmpty else { throw TokenizerError(file: file, .emptyFile) }
        let parsed = data.withUnsafeBufferPointer { d -> Result<HuggingFaceFile, TokenizerError> in
            if let bad = UTF8Validation.firstInvalidOffset(d) { return .failure(TokenizerError(file: file, .invalidUTF8(offset: bad))) }
            do throws(JSONScanner.Failure) {
                return .success(try HuggingFaceFile.parse(d))
            } catch {
                return .failure(TokenizerError(file: file, .malformedJSON(offset: error.offset, error.message)))
            }
        }
        let raw: HuggingFaceFile
        switch parsed {
        case .success(let r): raw = r
        case .failure(let e): throw e
        }
        do {
            return try build(raw)
        } catch let problem {
            throw TokenizerError(file: file, problem)
        }
    }

    static let metaspace = "\u{2581}"

    private static func build(_ raw: HuggingFaceFile) throws(TokenizerError.Problem) -> Tokenizer {
        let model = raw.model
        let type = model["type"]?.string ?? (raw.merges != nil ? "BPE" : "unknown")
        guard type == "BPE" else { throw .unknownModelType("\(type) (only BPE tokenizer.json models are supported)") }
        guard let vocab = raw.vocab else { throw .invalidVocabulary("model has no vocab object") }
        if let dropout = model["dropout"], !dropout.isNull, !(dropout.int == 0) {
            throw .unsupported("BPE dropout")
        }
        for key in ["continuing_subword_prefix", "end_of_word_suffix"] {
            if let v = model[key], !v.isNull, v.string != "" { throw .unsupported("BPE \(key)") }
        }

        // Pipeline.
        let normalizers = try parseNormalizer(raw.top["normalizer"])
        let preTokenizers = try parsePreTokenizer(raw.top["pre_tokenizer"])
        let decoder = try DecoderSpec(raw.top["decoder"])
        let byteLevel = preTokenizers.contains { if case .byteLevel = $0 { return true } else { return false } }
        if decoder.byteLevel && !byteLevel { throw .unsupported("ByteLevel decoder without a ByteLevel pre-tokenizer") }
        if let last = preTokenizers.lastIndex(where: { if case .byteLevel = $0 { return true } else { return false } }),
           last != preTokenizers.count - 1 {
            throw .unsupported("pre-tokenizers after ByteLevel")
        }

        // Ids: model vocab plus added tokens, no gaps.
        var addedByID: [Int: (content: [UInt8], special: Bool)] = [:]
        var addedOrder: [(bytes: [UInt8], id: Int, special: Bool)] = []
        for item in raw.top["added_tokens"]?.array ?? [] {
            guard let id = item["id"]?.int, id >= 0, let content = item["content"]?.string, !content.isEmpty else {
                throw .badSpecialToken("added token without an id and content")
            }
            for flag in ["lstrip", "rstrip", "single_word"] where item[flag]?.bool == true {
                throw .unsupported("added token '\(content)' with \(flag)")
            }
            guard id < Self.maxTokenID else { throw .invalidVocabulary("added token '\(content)' has id \(id), out of range (ids stop below \(Self.maxTokenID))") }
            let special = item["special"]?.bool ?? false
            addedByID[id] = (Array(content.utf8), special)
            addedOrder.append((Array(content.utf8), id, special))
        }
        var maxID = addedByID.keys.max() ?? -1
        var modelRange = [Range<Int>?](repeating: nil, count: 0)
        for entry in vocab.entries {
            guard entry.id >= 0, entry.id < Self.maxTokenID else { throw .invalidVocabulary("token id \(entry.id) out of range") }
            maxID = max(maxID, entry.id)
        }
        // Ids run from 0 without gaps, so there can be no more of them than entries: a larger id is
        // refused here, before tables of that size are allocated.
        let entryCount = vocab.entries.count + addedByID.count
        guard maxID < entryCount else {
            throw .invalidVocabulary("token id \(maxID) leaves gaps: \(entryCount) tokens cannot fill ids 0...\(maxID)")
        }
        let count = maxID + 1
        modelRange = [Range<Int>?](repeating: nil, count: count)
        for entry in vocab.entries {
            guard modelRange[entry.id] == nil else { throw .invalidVocabulary("two vocab entries have id \(entry.id)") }
            modelRange[entry.id] = entry.range
        }
        // Model-space bytes (raw bytes for byte-level models) and emitted bytes per id.
        var modelBytes: [UInt8] = []
        modelBytes.reserveCapacity(vocab.bytes.count)
        var modelOffsets: [UInt32] = [0]
        modelOffsets.reserveCapacity(count + 1)
        var tokenBytes: [UInt8] = []
        var tokenOffsets: [UInt32] = [0]
        let replacements = decoder.replacements
        for id in 0..<count {
            if let r = modelRange[id] {
                let key = vocab.bytes[r]
                if byteLevel {
                    guard ByteLevelAlphabet.decode(key, into: &modelBytes) else {
                        throw .invalidVocabulary("token \(id) '\(String(decoding: key, as: UTF8.self))' is not in the byte-level alphabet")
                    }
                } else {
                    modelBytes.append(contentsOf: key)
                }
            } else if addedByID[id] == nil {
                throw .invalidVocabulary("no token has id \(id)")
            }
            modelOffsets.append(UInt32(modelBytes.count))
            if let added = addedByID[id] {
                tokenBytes.append(contentsOf: added.content)
            } else if byteLevel {
                tokenBytes.append(contentsOf: modelBytes[Int(modelOffsets[id])...])
            } else {
                let key = Array(modelBytes[Int(modelOffsets[id])...])
                if decoder.byteFallback, let b = SentencePieceLoader.byteValue(key) {
                    tokenBytes.append(b)
                } else {
                    var t = key
                    for (from, to) in replacements { t = Normalizer.replaceAll(t, from, to) }
                    tokenBytes.append(contentsOf: t)
                }
            }
            tokenOffsets.append(UInt32(tokenBytes.count))
        }
        let table: PieceTable
        do {
            table = try PieceTable(bytes: modelBytes, offsets: modelOffsets) { modelRange[$0] != nil }
        } catch {
            throw .invalidVocabulary("tokens \(error.first) and \(error.second) have the same bytes")
        }

        // Merges: (left id, right id) -> (rank, merged id).
        var mergeList: [(left: Int32, right: Int32, merged: Int32)] = []
        if let merges = raw.merges {
            mergeList.reserveCapacity(merges.count)
            var left: [UInt8] = [], right: [UInt8] = [], both: [UInt8] = []
            for rank in 0..<merges.count {
                let (a, b) = merges.pair(rank)
                left.removeAll(keepingCapacity: true)
                right.removeAll(keepingCapacity: true)
                if byteLevel {
                    guard ByteLevelAlphabet.decode(a, into: &left), ByteLevelAlphabet.decode(b, into: &right) else {
                        throw .invalidVocabulary("merge \(rank) is not in the byte-level alphabet")
                    }
                } else {
                    left.append(contentsOf: a)
                    right.append(contentsOf: b)
                }
                both.removeAll(keepingCapacity: true)
                both.append(contentsOf: left)
                both.append(contentsOf: right)
                let l = table.lookup(left), r = table.lookup(right), m = table.lookup(both)
                guard l >= 0, r >= 0, m >= 0 else {
                    throw .invalidVocabulary("merge \(rank) ('\(String(decoding: a, as: UTF8.self))' '\(String(decoding: b, as: UTF8.self))') uses a token that is not in the vocabulary")
                }
                mergeList.append((l, r, m))
            }
        }

        var byteFallback: [Int32]? = nil
        if model["byte_fallback"]?.bool == true {
            var ids = [Int32](repeating: -1, count: 256)
            for b in 0..<256 {
                let id = table.lookup(Array("<0x\(SentencePieceLoader.hex(b))>".utf8))
                guard id >= 0 else { throw .invalidVocabulary("byte_fallback is on but there is no token <0x\(SentencePieceLoader.hex(b))>") }
                ids[b] = id
            }
            byteFallback = ids
        }
        var unk: Int32? = nil
        if let name = model["unk_token"]?.string {
            var id = table.lookup(Array(name.utf8))
            if id < 0, let added = addedOrder.first(where: { $0.bytes == Array(name.utf8) }) { id = Int32(added.id) }
            guard id >= 0 else { throw .invalidVocabulary("unk_token '\(name)' is not a token") }
            unk = id
        }
        if byteLevel {
            for b in 0..<256 where table.lookup([UInt8(b)]) < 0 {
                throw .invalidVocabulary("no token for the single byte 0x\(SentencePieceLoader.hex(b)); byte-level BPE needs all 256")
            }
        } else if byteFallback == nil && unk == nil {
            throw .invalidVocabulary("neither byte_fallback nor unk_token: some texts could not be encoded")
        }

        var bpe = BPEModel(pieces: table, ranking: .pairs(PairTable(mergeList)), unit: byteLevel ? .byte : .character,
                           wholeWordFirst: model["ignore_merges"]?.bool ?? false, byteFallback: byteFallback,
                           fallbackBeforeMerging: true, unknownID: unk, fuseUnknown: model["fuse_unk"]?.bool ?? false)
        // Without a splitting pre-tokenizer the text is one word; cut it before '▁' where that provably keeps
        // the ids (WordCuts.swift). A no-op for byte-level models.
        _ = bpe.enableWordCuts(before: Array(metaspace.utf8))

        var special = Set<Int>()
        var specialIDs: [String: Int] = [:]
        for t in addedOrder where t.special {
            special.insert(t.id)
            specialIDs[String(decoding: t.bytes, as: UTF8.self)] = t.id
        }
        let eos = knownEOSNames.compactMap { specialIDs[$0] }.sorted()
        let metaspaceBytes = Array(metaspace.utf8)
        let prefixes = normalizers.contains { if case .prepend(let p) = $0 { return p == metaspaceBytes } else { return false } }
            || preTokenizers.contains { if case .metaspace(_, let p, _) = $0 { return p != .never } else { return false } }
        let vocabulary = TokenVocabulary(bytes: tokenBytes, offsets: tokenOffsets, specialTokenIDs: special, eosTokenIDs: eos)
        return Tokenizer(format: .huggingFace, vocabulary: vocabulary, model: bpe, normalizers: normalizers,
                         preTokenizers: preTokenizers,
                         specialTokens: AddedTokenMatcher(addedOrder.filter(\.special).map { ($0.bytes, $0.id) }),
                         addedTokens: AddedTokenMatcher(addedOrder.filter { !$0.special }.map { ($0.bytes, $0.id) }),
                         decodeStripsLeadingSpace: prefixes, specialTokenIDs: specialIDs)
    }

    /// `tokenizer.json` does not say which tokens end generation; these special tokens do in the model
    /// families it is used for (override with `Tokenizer.load(path:eosTokens:)`).
    static let knownEOSNames = ["</s>", "<|endoftext|>", "<|im_end|>", "<|eot_id|>", "<|end_of_text|>", "<eos>",
                                "<end_of_turn>", "<|end|>", "<|eom_id|>"]

    // MARK: Pipeline parts

    static func regex(_ pattern: JSONNode?, what: String) throws(TokenizerError.Problem) -> PCRE2Regex {
        let source: String
        if let r = pattern?["Regex"]?.string {
            source = r
        } else if let s = pattern?["String"]?.string {
            source = s.unicodeScalars.map { "\\x{\(String($0.value, radix: 16))}" }.joined()
        } else {
            throw .unsupported("\(what) without a String or Regex pattern")
        }
        do { return try PCRE2Regex(source) } catch { throw .badPattern(error) }
    }

    static func parseNormalizer(_ node: JSONNode?) throws(TokenizerError.Problem) -> [Normalizer] {
        guard let node, !node.isNull else { return [] }
        let type = node["type"]?.string ?? "?"
        switch type {
        case "Sequence":
            var out: [Normalizer] = []
            for n in node["normalizers"]?.array ?? [] { out += try parseNormalizer(n) }
            return out
        case "Prepend":
            guard let p = node["prepend"]?.string else { throw .unsupported("Prepend normalizer without 'prepend'") }
            return [.prepend(Array(p.utf8))]
        case "Replace":
            let content = Array((node["content"]?.string ?? "").utf8)
            if let s = node["pattern"]?["String"]?.string { return [.replace(Array(s.utf8), with: content)] }
            return [.replaceRegex(try regex(node["pattern"], what: "Replace normalizer"), with: content)]
        case "NFC": return [.nfc]
        case "NFD": return [.nfd]
        case "NFKC": return [.nfkc]
        case "NFKD": return [.nfkd]
        case "Lowercase": return [.lowercase]
        default: throw .unsupported("normalizer \(type)")
        }
    }

    static func parsePreTokenizer(_ node: JSONNode?) throws(TokenizerError.Problem) -> [PreTokenizer] {
        guard let node, !node.isNull else { return [] }
        let type = node["type"]?.string ?? "?"
        switch type {
        case "Sequence":
            var out: [PreTokenizer] = []
            for n in node["pretokenizers"]?.array ?? [] { out += try parsePreTokenizer(n) }
            return out
        case "Split":
            let behaviorName = node["behavior"]?.string ?? "?"
            guard let behavior = SplitBehavior(rawValue: behaviorName) else { throw .unsupported("Split behavior \(behaviorName)") }
            return [.split(try regex(node["pattern"], what: "Split pre-tokenizer"), behavior, invert: node["invert"]?.bool ?? false)]
        case "ByteLevel":
            let useRegex = node["use_regex"]?.bool ?? true
            var r: PCRE2Regex? = nil
            if useRegex {
                do { r = try PCRE2Regex(PreTokenizer.gpt2Pattern) } catch { throw .badPattern(error) }
            }
            return [.byteLevel(addPrefixSpace: node["add_prefix_space"]?.bool ?? true, regex: r)]
        case "Metaspace":
            let replacement = Array((node["replacement"]?.string ?? metaspace).utf8)
            var prepend = PreTokenizer.MetaspacePrepend.always
            if let scheme = node["prepend_scheme"]?.string {
                guard let p = PreTokenizer.MetaspacePrepend(rawValue: scheme) else { throw .unsupported("Metaspace prepend_scheme \(scheme)") }
                prepend = p
            } else if node["add_prefix_space"]?.bool == false {
                prepend = .never
            }
            return [.metaspace(replacement: replacement, prepend: prepend, split: node["split"]?.bool ?? true)]
        default:
            throw .unsupported("pre-tokenizer \(type)")
        }
    }

    /// What the decoder says about turning token strings into bytes.
    struct DecoderSpec {
        var byteLevel = false
        var byteFallback = false
        var replacements: [([UInt8], [UInt8])] = []

        init(_ node: JSONNode?) throws(TokenizerError.Problem) {
            guard let node, !node.isNull else { return }
            try add(node)
        }

        mutating func add(_ node: JSONNode) throws(TokenizerError.Problem) {
            let type = node["type"]?.string ?? "?"
            switch type {
            case "Sequence": for d in node["decoders"]?.array ?? [] { try add(d) }
            case "ByteLevel": byteLevel = true
            case "ByteFallback": byteFallback = true
            case "Fuse", "Strip": break // joining and the leading-space strip happen at decode time
            case "Replace":
                guard let s = node["pattern"]?["String"]?.string else { throw .unsupported("Replace decoder with a regex pattern") }
                replacements.append((Array(s.utf8), Array((node["content"]?.string ?? "").utf8)))
            case "Metaspace":
                replacements.append((Array((node["replacement"]?.string ?? HuggingFaceLoader.metaspace).utf8), [0x20]))
            default:
                throw .unsupported("decoder \(type)")
            }
        }
    }
}

/// The raw content of a tokenizer.json: small parts as `JSONNode`, the vocab and merges as flat buffers.
struct HuggingFaceFile {
    struct Vocab {
        var bytes: [UInt8] = []
        var entries: [(range: Range<Int>, id: Int)] = []
    }

    struct Merges {
        var bytes: [UInt8] = []
        /// For merge k: left = bounds[3k]..<bounds[3k+1], right = bounds[3k+1]..<bounds[3k+2].
        var bounds: [Int] = []
        var count: Int { bounds.count / 3 }
        func pair(_ k: Int) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
            (bytes[bounds[3 * k]..<bounds[3 * k + 1]], bytes[bounds[3 * k + 1]..<bounds[3 * k + 2]])
        }
    }

    var top: JSONNode = .object([])
    var model: JSONNode = .object([])
    var vocab: Vocab?
    var merges: Merges?

    static func parse(_ d: UnsafeBufferPointer<UInt8>) throws(JSONScanner.Failure) -> HuggingFaceFile {
        var file = HuggingFaceFile()
        var s = JSONScanner(d)
        var topEntries: [(String, JSONNode)] = []
        var modelEntries: [(String, JSONNode)] = []
        try s.forEachKey { (s: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
            guard key == "model" else { topEntries.append((key, try s.readValue())); return }
            try s.forEachKey { (s: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
                if key == "vocab", try s.peek() == 0x7B {
                    file.vocab = try parseVocab(&s)
                } else if key == "merges", try s.peek() == 0x5B {
                    file.merges = try parseMerges(&s)
                } else {
                    modelEntries.append((key, try s.readValue()))
                }
            }
        }
        try s.expectEnd()
        file.top = .object(topEntries)
        file.model = .object(modelEntries)
        return file
    }

    static func parseVocab(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> Vocab {
        var v = Vocab()
        try s.expect(0x7B)
        if try s.peek() == 0x7D { s.i += 1; return v }
        while true {
            let start = v.bytes.count
            try s.readString(into: &v.bytes)
            let end = v.bytes.count
            try s.expect(0x3A)
            let id = try s.readInteger()
            v.entries.append((start..<end, id))
            let c = try s.peek()
            s.i += 1
            if c == 0x7D { return v }
            guard c == 0x2C else { throw s.fail("expected ',' or '}'", at: s.i - 1) }
        }
    }

    static func parseMerges(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> Merges {
        var m = Merges()
        try s.forEachElement { (s: inout JSONScanner) throws(JSONScanner.Failure) in
            let at = s.i
            let start = m.bytes.count
            if try s.peek() == 0x22 {
                // "left right": split at the single space (tokens never contain a space in this format).
                try s.readString(into: &m.bytes)
                guard let space = m.bytes[start...].firstIndex(of: 0x20),
                      !m.bytes[(space + 1)...].contains(0x20) else { throw s.fail("merge is not two tokens separated by one space", at: at) }
                m.bytes.remove(at: space)
                m.bounds += [start, space, m.bytes.count]
            } else {
                var parts = 0
                var middle = start
                try s.forEachElement { (s: inout JSONScanner) throws(JSONScanner.Failure) in
                    parts += 1
                    guard parts <= 2 else { throw s.fail("merge has more than two tokens", at: at) }
                    try s.readString(into: &m.bytes)
                    if parts == 1 { middle = m.bytes.count }
                }
                guard parts == 2 else { throw s.fail("merge does not have two tokens", at: at) }
                m.bounds += [start, middle, m.bytes.count]
            }
        }
        return m
    }
}
