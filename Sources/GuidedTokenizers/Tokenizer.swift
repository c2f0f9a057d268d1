import Foundation
import PCRE2Kit

/// A loaded tokenizer: the exact bytes of every token (`vocabulary`, what the mask engine needs) and an
/// encoder/decoder that reproduces the reference tokenizer's ids.
///
/// ```swift
/// let tok = try Tokenizer.load(path: "qwen2.tiktoken", preset: .qwen2)
/// let ids = try tok.encode("Hello world")      // [9707, 1879]
/// tok.decodeText(ids)                          // "Hello world"
/// tok.vocabulary.tokenBytes(9707)              // "Hello"
/// ```
///
/// `Tokenizer` is an immutable value and `Sendable`; `encode` makes its own scratch space per call. For many
/// calls on one thread, `makeEncoder()` gives a reusable `TokenEncoder`.
public struct Tokenizer: Sendable {
    /// Which file the tokenizer was read from (`gguf`: a model file's `tokenizer.ggml.*` metadata).
    public enum Format: String, Sendable { case tiktoken, huggingFace, sentencePiece, gguf }

    public let format: Format
    /// Exact bytes of every token as the model emits them, special tokens, EOS ids, logits width.
    public let vocabulary: TokenVocabulary
    private(set) var model: BPEModel
    let normalizers: [Normalizer]
    let preTokenizers: [PreTokenizer]
    /// Special tokens: recognized in the input text only on request.
    let specialTokens: AddedTokenMatcher
    /// Added tokens that are not special: always recognized (Hugging Face semantics).
    let addedTokens: AddedTokenMatcher
    /// The tokenizer adds a leading '▁' (dummy prefix) that decoding removes again.
    let decodeStripsLeadingSpace: Bool

    /// Special token texts and their ids.
    public let specialTokenIDs: [String: Int]

    /// The id of a special token by its text.
    public func specialTokenID(_ text: String) -> Int? { specialTokenIDs[text] }

    /// Same tokenizer with padded logits width (`size` ≥ token count); ids past the tokens are never allowed.
    public func padded(to size: Int) -> Tokenizer {
        Tokenizer(format: format, vocabulary: vocabulary.padded(to: size), model: model, normalizers: normalizers,
                  preTokenizers: preTokenizers, specialTokens: specialTokens, addedTokens: addedTokens,
                  decodeStripsLeadingSpace: decodeStripsLeadingSpace, specialTokenIDs: specialTokenIDs)
    }

    /// Approximate bytes held by this tokenizer: token bytes and offsets, the encoder's piece index and merge
    /// ranks (the vocabulary alone is `vocabulary.bytes.count + 4 * vocabulary.offsets.count`).
    public var memoryFootprint: Int {
        var total = vocabulary.bytes.count + vocabulary.offsets.count * 4 + vocabulary.specialTokenIDs.count * 16
        total += model.pieces.memoryFootprint + 256 * 4
        switch model.ranking {
        case .concatenation: total += model.pieces.count * 4
        case .concatenationWithPairs(_, let table): total += model.pieces.count * 4 + (table.storage.mask + 1) * 16
        case .pairs(let table): total += (table.storage.mask + 1) * 16
        }
        return total
    }

    /// Test hook: send every word through the heap merge path.
    mutating func forceHeapMerging() { model.shortWordLimit = 0 }

    /// Test hook: merge each pre-tokenized word whole (no cuts).
    mutating func disableWordCuts() { model.disableWordCuts() }

    /// Whether words are cut where merges provably cannot cross (see `WordCuts.swift`).
    var cutsWords: Bool { model.cutRules != nil }

    /// Same tokenizer with other EOS ids.
    func withEOS(_ ids: [Int]) -> Tokenizer {
        let v = vocabulary
        return Tokenizer(format: format, vocabulary: TokenVocabulary(bytes: v.bytes, offsets: v.offsets, specialTokenIDs: v.specialTokenIDs,
                                                                     eosTokenIDs: ids, size: v.size),
                         model: model, normalizers: normalizers, preTokenizers: preTokenizers, specialTokens: specialTokens,
                         addedTokens: addedTokens, decodeStripsLeadingSpace: decodeStripsLeadingSpace, specialTokenIDs: specialTokenIDs)
    }

    // MARK: Encoding

    /// Token ids of `text`.
    /// - Parameter recognizeSpecialTokens: when false (the default, as the reference fixtures), special-token
    ///   text such as `<|im_start|>` or `</s>` is encoded as plain text.
    /// - Throws: `PCRE2Error` only if the pre-tokenizer regex gives up (resource limit).
    public func encode(_ text: String, recognizeSpecialTokens: Bool = false) throws(PCRE2Error) -> [Int] {
        try makeEncoder().encode(text, recognizeSpecialTokens: recognizeSpecialTokens)
    }

    /// A reusable encoder holding scratch buffers and regex match data (one per thread).
    public func makeEncoder() -> TokenEncoder { TokenEncoder(self) }

    // MARK: Decoding

    /// The bytes of `ids` concatenated, as the model would emit them. Ids past the token count have no bytes.
    /// - Parameters:
    ///   - skipSpecialTokens: leave out the text of special tokens.
    ///   - stripDummyPrefix: drop the leading space a SentencePiece-style tokenizer added while encoding
    ///     (true by default so that decode(encode(s)) == s).
    public func decode(_ ids: [Int], skipSpecialTokens: Bool = false, stripDummyPrefix: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        for (n, id) in ids.enumerated() {
            if skipSpecialTokens && vocabulary.isSpecial(id) { continue }
            let bytes = vocabulary.tokenBytes(id)
            if n == 0 && stripDummyPrefix && decodeStripsLeadingSpace && !vocabulary.isSpecial(id) && bytes.first == 0x20 {
                out.append(contentsOf: bytes.dropFirst())
            } else {
                out.append(contentsOf: bytes)
            }
        }
        return out
    }

    /// `decode` as text; bytes that are not valid UTF-8 become U+FFFD.
    public func decodeText(_ ids: [Int], skipSpecialTokens: Bool = false) -> String {
        String(decoding: decode(ids, skipSpecialTokens: skipSpecialTokens), as: UTF8.self)
    }

    /// A decoder for a stream of ids that emits only complete UTF-8 characters, holding a character split
    /// across tokens until its last byte arrives.
    public func makeStreamingDecoder(skipSpecialTokens: Bool = false) -> StreamingDecoder {
        StreamingDecoder(tokenizer: self, skipSpecialTokens: skipSpecialTokens)
    }
}

/// Encodes many texts with one tokenizer, reusing buffers and PCRE2 match data between calls.
/// Not `Sendable`: make one per thread.
public final class TokenEncoder {
    public let tokenizer: Tokenizer
    let scratch = BPEScratch()
    let matchers: [PCRE2Matcher?]
    var words: [Range<Int>] = []
    var spare: [Range<Int>] = []

    init(_ tokenizer: Tokenizer) {
        self.tokenizer = tokenizer
        self.matchers = tokenizer.preTokenizers.map { $0.regex.map(PCRE2Matcher.init) }
    }

    public func encode(_ text: String, recognizeSpecialTokens: Bool = false) throws(PCRE2Error) -> [Int] {
        var out: [Int] = []
        var copy = text
        let result = copy.withUTF8 { buf in
            Result { () throws(PCRE2Error) in try self.encodeBytes(buf, recognizeSpecialTokens, &out) }
        }
        try result.get()
        return out
    }

    /// Token ids whose bytes are exactly `text`'s, as when the text continues what came before: what a
    /// model emits for it after a prompt, and what a grammar over the text's bytes accepts. `encode`
    /// gives the same ids, except where the tokenizer puts its dummy prefix (SentencePiece, a Metaspace
    /// that prepends `▁`) before the first word: `{"a": 1}` then starts with `▁{`, a space the text does
    /// not have. The text is then encoded after a marker, and the marker's tokens, dummy prefix included,
    /// are dropped; where no token boundary falls right after the marker, the plain encoding is
    /// returned.
    public func encodeContinuation(_ text: String) throws(PCRE2Error) -> [Int] {
        let ids = try encode(text)
        let want = Array(text.utf8)
        let vocabulary = tokenizer.vocabulary
        func bytes(_ ids: ArraySlice<Int>) -> [UInt8] { ids.flatMap { vocabulary.tokenBytes($0) } }
        if bytes(ids[...]) == want { return ids }
        for marker in ["\n", "\u{1}"] {
            let marked = try encode(marker + text)
            let all = bytes(marked[...])
            guard all.count >= want.count, Array(all.suffix(want.count)) == want else { continue }
            var length = 0
            for (k, id) in marked.enumerated() {
                if length == all.count - want.count { return Array(marked[k...]) }
                length += vocabulary.tokenBytes(id).count
                if length > all.count - want.count { break }
            }
        }
        return ids
    }

    /// Splits at added/special tokens, then normalizes, pre-tokenizes and BPE-encodes each plain segment.
    private func encodeBytes(_ text: UnsafeBufferPointer<UInt8>, _ special: Bool, _ out: inout [Int]) throws(PCRE2Error) {
        let t = tokenizer
        let checkAdded = !t.addedTokens.isEmpty
        let checkSpecial = special && !t.specialTokens.isEmpty
        guard checkAdded || checkSpecial else {
            try encodeSegment(text, first: true, &out)
            return
        }
        var segmentStart = 0
        var i = 0
        var first = true
        while i < text.count {
            let hit = (checkSpecial ? t.specialTokens.match(text, at: i) : nil) ?? (checkAdded ? t.addedTokens.match(text, at: i) : nil)
            if let hit {
                if i > segmentStart {
                    try encodeSegment(UnsafeBufferPointer(rebasing: text[segmentStart..<i]), first: first, &out)
                }
                first = false
                out.append(hit.id)
                i += hit.length
                segmentStart = i
            } else {
                i += 1
            }
        }
        if segmentStart < text.count {
            try encodeSegment(UnsafeBufferPointer(rebasing: text[segmentStart...]), first: first, &out)
        }
    }

    private func encodeSegment(_ segment: UnsafeBufferPointer<UInt8>, first: Bool, _ out: inout [Int]) throws(PCRE2Error) {
        let t = tokenizer
        // Fast path (tiktoken): no normalizer, one regex whose matches are the words.
        if t.normalizers.isEmpty, t.preTokenizers.count == 1, case .matches = t.preTokenizers[0], let m = matchers[0] {
            guard let base = segment.baseAddress else { return }
            try m.forEachMatch(in: segment, subjectIsValidUTF8: true) { r in
                t.model.encode(base + r.lowerBound, r.count, into: &out, scratch: scratch)
            }
            return
        }
        var text = Array(segment)
        for n in t.normalizers { text = try n.apply(text) }
        words.removeAll(keepingCapacity: true)
        if !text.isEmpty { words.append(0..<text.count) }
        for (k, p) in t.preTokenizers.enumerated() {
            try p.apply(text: &text, words: &words, matcher: matchers[k], isFirstSegment: first, scratch: &spare)
        }
        text.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            for w in words { t.model.encode(base + w.lowerBound, w.count, into: &out, scratch: scratch) }
        }
    }
}

/// Turns a stream of token ids into text, emitting only complete UTF-8 characters (a character whose bytes
/// span several tokens is held back until complete). Invalid sequences become U+FFFD.
public struct StreamingDecoder: Sendable {
    let tokenizer: Tokenizer
    let skipSpecialTokens: Bool
    private var pending: [UInt8] = []
    private var emittedAny = false

    init(tokenizer: Tokenizer, skipSpecialTokens: Bool) {
        self.tokenizer = tokenizer
        self.skipSpecialTokens = skipSpecialTokens
    }

    /// Adds one token; returns the text that became complete.
    public mutating func push(_ id: Int) -> String {
        if skipSpecialTokens && tokenizer.vocabulary.isSpecial(id) { return "" }
        var bytes = tokenizer.vocabulary.tokenBytes(id)
        if !emittedAny && tokenizer.decodeStripsLeadingSpace && !tokenizer.vocabulary.isSpecial(id) && bytes.first == 0x20 {
            bytes = bytes.dropFirst()
        }
        emittedAny = true
        pending.append(contentsOf: bytes)
        let complete = UTF8Boundary.completePrefixLength(pending)
        let text = String(decoding: pending[0..<complete], as: UTF8.self)
        pending.removeFirst(complete)
        return text
    }

    /// Ends the stream: any incomplete character left becomes U+FFFD.
    public mutating func finish() -> String {
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }
}

enum UTF8Boundary {
    /// Length of the longest prefix that does not end inside an incomplete (but so far valid) UTF-8 sequence.
    static func completePrefixLength(_ b: [UInt8]) -> Int {
        let n = b.count
        var back = 0
        var i = n - 1
        while i >= 0 && back < 4 {
            let c = b[i]
            if c & 0xC0 != 0x80 {
                let need = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 1
                return (n - i) < need ? i : n
            }
            back += 1
            i -= 1
        }
        return n
    }
}
