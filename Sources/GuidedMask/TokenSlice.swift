import GuidedTokenizers

/// A precomputed set of tokens that are plain JSON string text: complete UTF-8 characters, none of them
/// `"`, `\`, a control character below U+0020 or a line separator (see `SliceUTF8`), at most
/// `maxCharacters` of them. About 96% of Qwen2's tokens are such text. The unbounded slice also holds
/// the tokens that end inside such a character (plain text, then the first bytes of one more plain
/// character: 1,266 of Qwen2's, the pieces a byte-level BPE makes of CJK text): a state that reads every
/// plain string reads every prefix of one, so they too are allowed there whatever the stack holds, and
/// its rest trie leaves them out (about 30 % of the nodes its walk visited, and the bits that made most
/// string states' entries pass `MaskCacheEntry.mergedListThreshold`).
///
/// Inside a JSON string almost every token is allowed, and deciding that by walking the whole token
/// trie costs milliseconds. When an automaton state provably accepts every string of such characters
/// (`GrammarMatcher.sliceApplies`), every token of the slice is allowed there whatever the stack holds,
/// so the mask is this set's bits plus a walk of `rest`: the trie of the other tokens only (12k nodes
/// instead of 333k for Qwen2). The idea is llguidance's "slices"; the check and layout here are ours.
final class TokenSlice: @unchecked Sendable {
    // @unchecked: `members` and `restNodes` are written only in `init` and freed in `deinit`; the rest is
    // immutable.
    /// Characters per token at most (`Int.max`: any number).
    let maxCharacters: Int
    /// Bitmask (`maskWords` words) of the tokens in the slice. A raw buffer, not an array: every mask of a
    /// string state copies it, from every thread at once, and an array would be retained and released
    /// (one shared reference count, written by every thread) at each copy.
    let members: UnsafeMutableBufferPointer<UInt32>
    /// Trie of every other non-special token.
    let rest: TokenTrie
    let restNodes: UnsafeMutableBufferPointer<TokenTrie.Node>
    /// The slice whose rest trie this one shares (it owns `restNodes`), if any.
    private let restOwner: TokenSlice?
    /// The unbounded slice's rest without the tokens made of plain text and then a control byte
    /// (`controlCutTokens`), for states where no control byte can follow plain text
    /// (`ControlByteProof`): every such token dies at its control byte there. Nil for other slices, and
    /// where it would spare too few nodes (`minSkippedNodes`).
    let textRest: (trie: TokenTrie, nodes: UnsafeMutableBufferPointer<TokenTrie.Node>)?
    /// Nodes `textRest` must spare a walk (or half of the rest trie) for the proof it needs to be worth
    /// asking: Qwen2's spares 7,200 of 10,500 nodes; Mistral's 32k vocabulary about 100 of 590, less than
    /// the proofs cost (measured: no gain, a slightly higher p99.9).
    static let minSkippedNodes = 1_024
    /// The trie of every token that is not plain text (complete characters), for the slices that share
    /// it (`init(plainUpTo:)`, gap slices): the unbounded slice's own `rest` leaves out the tokens that
    /// end inside a character, which those slices do not hold. Set on the unbounded slice only.
    private let nonPlain: (trie: TokenTrie, nodes: UnsafeMutableBufferPointer<TokenTrie.Node>)?
    /// A gap slice's other plain tokens, those holding an excluded character (see `init(excluding:)`):
    /// walked besides `rest`. Empty for the other slices.
    let gap: TokenTrie?
    let gapNodes: UnsafeMutableBufferPointer<TokenTrie.Node>?

    /// The plain tokens of at most `maxCharacters` characters, with the trie of every other token.
    /// `counts` is `plainCharacterCounts(vocabulary)`.
    /// Unbounded (`Int.max`), it holds the tokens ending inside a plain character too, and keeps the trie
    /// of the non-plain tokens for the slices that share it.
    init(vocabulary: TokenVocabulary, counts: [UInt8], maxCharacters: Int, maskWords: Int) throws(TokenTrieError) {
        self.maxCharacters = maxCharacters
        let plain = Self.members(counts, maxCharacters: maxCharacters, maskWords: maskWords)
        var bits = plain
        if maxCharacters == Int.max {
            for id in Self.plainPrefixTokens(vocabulary) { bits[id >> 5] |= 1 << UInt32(id & 31) }
        }
        members = .copying(bits)
        rest = try TokenTrie(vocabulary: vocabulary, including: { bits[$0 >> 5] & (1 << UInt32($0 & 31)) == 0 })
        restNodes = .allocate(capacity: max(1, rest.nodes.count))
        _ = restNodes.initialize(from: rest.nodes)
        restOwner = nil
        gap = nil
        gapNodes = nil
        guard maxCharacters == Int.max else {
            nonPlain = nil
            textRest = nil
            return
        }
        nonPlain = try Self.owned(TokenTrie(vocabulary: vocabulary, including: { plain[$0 >> 5] & (1 << UInt32($0 & 31)) == 0 }))
        var cut = [Bool](repeating: false, count: vocabulary.tokenCount)
        for id in Self.controlCutTokens(vocabulary) { cut[id] = true }
        let text = try TokenTrie(vocabulary: vocabulary, including: { bits[$0 >> 5] & (1 << UInt32($0 & 31)) == 0 && !cut[$0] })
        let spared = rest.nodes.count - text.nodes.count
        textRest = spared >= Self.minSkippedNodes || 2 * spared >= rest.nodes.count ? Self.owned(text) : nil
    }

    /// A trie with its nodes in a raw buffer (the walk reads them from every thread; see `members`).
    private static func owned(_ trie: TokenTrie) -> (trie: TokenTrie, nodes: UnsafeMutableBufferPointer<TokenTrie.Node>) {
        let nodes = UnsafeMutableBufferPointer<TokenTrie.Node>.allocate(capacity: max(1, trie.nodes.count))
        _ = nodes.initialize(from: trie.nodes)
        return (trie, nodes)
    }

    /// The plain tokens of at most `maxCharacters` characters (`counts`: each token's characters if it is
    /// plain text, else 0), with `unbounded`'s rest trie: the tokens that are not plain text. It is for
    /// states that provably reject longer plain text (`GrammarMatcher.exactRoom`), so the longer plain
    /// tokens, left out of both, need no walk.
    init(plainUpTo maxCharacters: Int, counts: [UInt8], sharing unbounded: TokenSlice) {
        guard let shared = unbounded.nonPlain else { preconditionFailure("the shared rest must hold every non-plain token and nothing else") }
        self.maxCharacters = maxCharacters
        members = .copying(Self.members(counts, maxCharacters: maxCharacters, maskWords: unbounded.members.count))
        rest = shared.trie
        restNodes = shared.nodes
        restOwner = unbounded
        nonPlain = nil
        textRest = nil
        gap = nil
        gapNodes = nil
    }

    /// A gap slice: the plain tokens of at most `maxCharacters` characters holding none of the printable
    /// ASCII characters of `excluded`, for string states that read every such text (a `pattern` like
    /// `[^-]*`, where `-` leads elsewhere). The other plain tokens (`gapTokens`: holding one, or longer)
    /// are walked in their own small trie; the non-plain ones in `unbounded`'s rest trie.
    init(excluding excluded: ASCIISet, maxCharacters: Int, gapTokens: [UInt32], members bits: [UInt32],
         vocabulary: TokenVocabulary, sharing unbounded: TokenSlice) throws(TokenTrieError) {
        guard let shared = unbounded.nonPlain else { preconditionFailure("the shared rest must hold every non-plain token and nothing else") }
        self.maxCharacters = maxCharacters
        members = .copying(bits)
        rest = shared.trie
        restNodes = shared.nodes
        restOwner = unbounded
        nonPlain = nil
        textRest = nil
        let trie = try TokenTrie(vocabulary: vocabulary, ids: gapTokens)
        gap = trie
        let nodes = UnsafeMutableBufferPointer<TokenTrie.Node>.allocate(capacity: max(1, trie.nodes.count))
        _ = nodes.initialize(from: trie.nodes)
        gapNodes = nodes
    }

    deinit {
        if restOwner == nil { restNodes.deallocate() }
        nonPlain?.nodes.deallocate()
        textRest?.nodes.deallocate()
        gapNodes?.deallocate()
        members.deallocate()
    }

    /// Bitmask of the tokens whose `counts` entry is 1 ... `maxCharacters`.
    private static func members(_ counts: [UInt8], maxCharacters: Int, maskWords: Int) -> [UInt32] {
        var bits = [UInt32](repeating: 0, count: maskWords)
        for (id, n) in counts.enumerated() where n > 0 && Int(n) <= maxCharacters {
            bits[id >> 5] |= 1 << UInt32(id & 31)
        }
        return bits
    }

    /// The non-special tokens that are plain text followed by the first bytes of one more plain
    /// character: every byte keeps `SliceUTF8` going, and the token ends inside a character.
    static func plainPrefixTokens(_ vocabulary: TokenVocabulary) -> [Int] {
        tokens(of: vocabulary) { if case .finished(let u) = $0 { u != SliceUTF8.boundary } else { false } }
    }

    /// The non-special tokens made of complete plain characters (possibly none) and then a byte below
    /// 0x20: `.\n`, `):\n\t`, a newline. Inside a JSON string each dies at that byte.
    static func controlCutTokens(_ vocabulary: TokenVocabulary) -> [Int] {
        tokens(of: vocabulary) { if case .stopped(let u, let b) = $0 { u == SliceUTF8.boundary && b < 0x20 } else { false } }
    }

    /// How `SliceUTF8` reads a token: every byte, ending at position `u`, or up to the first byte it
    /// rejects, read at position `u`.
    private enum PlainReading {
        case finished(UInt8)
        case stopped(UInt8, UInt8)
    }

    /// The non-special tokens whose plain reading `keep` accepts.
    private static func tokens(of vocabulary: TokenVocabulary, where keep: (PlainReading) -> Bool) -> [Int] {
        let bytes = vocabulary.bytes, offsets = vocabulary.offsets
        return (0..<vocabulary.tokenCount).filter { id in
            guard !vocabulary.specialTokenIDs.contains(id) else { return false }
            var u = SliceUTF8.boundary
            for i in Int(offsets[id])..<Int(offsets[id + 1]) {
                let next = SliceUTF8.next(u, bytes[i])
                if next == SliceUTF8.reject { return keep(.stopped(u, bytes[i])) }
                u = next
            }
            return keep(.finished(u))
        }
    }

    /// Per token: its characters if it is plain JSON string text (capped at 255, more than any bounded
    /// slice holds), else 0; 0 for special tokens.
    static func plainCharacterCounts(_ vocabulary: TokenVocabulary) -> [UInt8] {
        var counts = [UInt8](repeating: 0, count: vocabulary.tokenCount)
        let bytes = vocabulary.bytes, offsets = vocabulary.offsets
        for id in 0..<vocabulary.tokenCount where !vocabulary.specialTokenIDs.contains(id) {
            counts[id] = UInt8(min(255, characterCount(bytes, Int(offsets[id]), Int(offsets[id + 1]))))
        }
        return counts
    }

    /// Characters in `bytes[start..<end]` if they are all plain JSON string text, else 0.
    static func characterCount(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
        bytes.withUnsafeBufferPointer { characterCount($0.baseAddress!, start, end) }
    }

    static func characterCount(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var u = SliceUTF8.boundary
        var count = 0
        var i = start
        while i < end {
            // Printable ASCII other than `"` and `\` (most of most tokens) without the state switch.
            let b = bytes[i]
            if u == SliceUTF8.boundary && b >= 0x20 && b <= 0x7F && b != 0x22 && b != 0x5C {
                count += 1; i += 1; continue
            }
            u = SliceUTF8.next(u, b)
            if u == SliceUTF8.reject { return 0 }
            if u == SliceUTF8.boundary { count += 1 }
            i += 1
        }
        return u == SliceUTF8.boundary ? count : 0
    }

    /// Bytes of the UTF-8 character that `lead` begins.
    @inline(__always)
    static func utf8Length(lead: UInt8) -> Int { lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }

    var byteCount: Int {
        members.count * 4 + (restOwner == nil ? rest.memoryFootprint + restNodes.count * 8 : 0)
            + (nonPlain.map { $0.trie.memoryFootprint + $0.nodes.count * 8 } ?? 0)
            + (textRest.map { $0.trie.memoryFootprint + $0.nodes.count * 8 } ?? 0)
            + (gap.map { $0.memoryFootprint + $0.nodes.count * 8 } ?? 0)
    }
}

/// A set of printable ASCII characters (0x20–0x7F), one bit each.
struct ASCIISet: Hashable, Sendable {
    var low: UInt64 = 0    // 0x20–0x5F
    var high: UInt64 = 0   // 0x60–0x7F

    @inline(__always)
    mutating func insert(_ b: UInt8) {
        if b >= 0x20 && b < 0x60 { low |= 1 << UInt64(b - 0x20) } else if b >= 0x60 && b < 0x80 { high |= 1 << UInt64(b - 0x60) }
    }

    @inline(__always)
    func intersects(_ other: ASCIISet) -> Bool { low & other.low != 0 || high & other.high != 0 }

    /// The bit standing for every byte outside 0x20–0x7F (`insertAny`); never set by `insert`, so a set
    /// holding it is a subset of no set of printable characters.
    static let otherBit: UInt64 = 1 << 63

    /// The bit standing for every non-ASCII character of plain text (`SliceUTF8`): a token's class set
    /// holds it when its bytes above 0x7F are such characters (`ClassSlices.characters(of:)`), and a
    /// class holds it when its state reads every byte of every such character but, without the
    /// `spaceBit`, the non-ASCII white space (`GrammarMatcher.classSlice`).
    static let wideBit: UInt64 = 1 << 62

    /// The bit standing for the non-ASCII white space characters (`SliceUTF8.nextSpaceless`): a token
    /// holds it (beside the `wideBit`) when it holds one of them whole; a class holds it when its state
    /// reads them too. A class with the `wideBit` alone is `\S`'s non-ASCII part.
    static let spaceBit: UInt64 = 1 << 61

    /// Inserts `b`, or the `otherBit` when it is not printable ASCII.
    @inline(__always)
    mutating func insertAny(_ b: UInt8) {
        if b >= 0x20 && b < 0x80 { insert(b) } else { high |= Self.otherBit }
    }

    @inline(__always)
    func contains(_ b: UInt8) -> Bool {
        if b >= 0x20 && b < 0x60 { return low & (1 << UInt64(b - 0x20)) != 0 }
        if b >= 0x60 && b < 0x80 { return high & (1 << UInt64(b - 0x60)) != 0 }
        return false
    }

    @inline(__always)
    func isSubset(of other: ASCIISet) -> Bool { low & ~other.low == 0 && high & ~other.high == 0 }

    @inline(__always)
    mutating func formUnion(_ other: ASCIISet) { low |= other.low; high |= other.high }

    /// Printable characters held (neither the `otherBit`, the `wideBit` nor the `spaceBit` counted).
    var count: Int { low.nonzeroBitCount + (high & ~(Self.otherBit | Self.wideBit | Self.spaceBit)).nonzeroBitCount }

    var holdsWide: Bool { high & Self.wideBit != 0 }
    var isEmpty: Bool { low == 0 && high == 0 }
}

/// The byte automaton of plain JSON string text: well-formed UTF-8 (no surrogates, nothing past
/// U+10FFFF) without `"`, `\`, U+0000–U+001F and the line separators U+2028 and U+2029. State
/// `boundary` is between characters.
///
/// The separators are left out because a regex `.` does not match them: with them in, no state of a
/// `pattern` like `^v\d+.*$` could take a slice, and each position of such a string walked the whole
/// trie on its first visit (10-20 ms in a `maxLength` string). The few tokens holding one are walked
/// like every other non-plain token.
enum SliceUTF8 {
    static let boundary: UInt8 = 0
    static let reject: UInt8 = 255
    static let stateCount = 10
    /// Per state: the bytes it reads and the state after each, in byte order.
    static let edges = byteEdges(positions: stateCount, next)

    /// Per position of a text automaton: the bytes it reads and the position after each, in byte order.
    private static func byteEdges(positions: Int, _ next: (UInt8, UInt8) -> UInt8) -> [[(UInt8, UInt8)]] {
        (0..<positions).map { u in
            (0..<256).compactMap { b in
                let v = next(UInt8(u), UInt8(b))
                return v == reject ? nil : (UInt8(b), v)
            }
        }
    }

    /// Positions of `nextSpaceless`: these ten and eight more (see there).
    static let spacelessStateCount = 18
    /// Per position of `nextSpaceless`: the bytes it reads and the position after each, in byte order.
    static let spacelessEdges = byteEdges(positions: spacelessStateCount, nextSpaceless)

    /// Plain text without its non-ASCII white space: U+0085, U+00A0, U+1680, U+2000–U+200A, U+202F,
    /// U+205F, U+3000 and U+FEFF, the characters outside ASCII that `\s` matches in ECMA-262 or in the
    /// grammar-text regexes (Python's `\s` has U+0085 and not U+FEFF). A state looping over `\S` reads
    /// every other character, which is what `GrammarMatcher.classSlice` checks with these positions. The
    /// first ten positions are `next`'s; each excluded character rejects at its last byte, so every
    /// prefix of one is still read (each can become another character). New positions: 10 = after C2;
    /// 11 = after E1; 12 = after E1 9A; 13 = after E2 81; 14 = after E3; 15 = after E3 80; 16 = after
    /// EF; 17 = after EF BB. After E2 (8) 81 leads to 13, and after E2 80 (9) 80–8A and AF are
    /// rejected too.
    static func nextSpaceless(_ u: UInt8, _ b: UInt8) -> UInt8 {
        let continuation = (0x80...0xBF).contains(b)
        switch u {
        case 0:
            switch b {
            case 0xC2: return 10
            case 0xE1: return 11
            case 0xE3: return 14
            case 0xEF: return 16
            default: return next(u, b)
            }
        case 8: return b == 0x81 ? 13 : next(u, b)
        case 9: return (0x80...0x8A).contains(b) || b == 0xAF ? reject : next(u, b)
        case 10: return continuation && b != 0x85 && b != 0xA0 ? 0 : reject
        case 11: return b == 0x9A ? 12 : continuation ? 1 : reject
        case 12, 15: return continuation && b != 0x80 ? 0 : reject
        case 13: return continuation && b != 0x9F ? 0 : reject
        case 14: return b == 0x80 ? 15 : continuation ? 1 : reject
        case 16: return b == 0xBB ? 17 : continuation ? 1 : reject
        case 17: return continuation && b != 0xBF ? 0 : reject
        default: return next(u, b)
        }
    }

    /// States: 1, 2, 3 = that many continuation bytes (80–BF) left; 4 = after E0 (A0–BF, then 1);
    /// 5 = after ED (80–9F, then 1); 6 = after F0 (90–BF, then 2); 7 = after F4 (80–8F, then 2);
    /// 8 = after E2 (80 to 9, 81–BF then 1); 9 = after E2 80 (anything but A8 and A9).
    @inline(__always)
    static func next(_ u: UInt8, _ b: UInt8) -> UInt8 {
        switch u {
        case 0:
            switch b {
            case 0x22, 0x5C: return reject
            case 0x20...0x7F: return 0
            case 0xC2...0xDF: return 1
            case 0xE0: return 4
            case 0xE2: return 8
            case 0xE1, 0xE3...0xEC, 0xEE, 0xEF: return 2
            case 0xED: return 5
            case 0xF0: return 6
            case 0xF1...0xF3: return 3
            case 0xF4: return 7
            default: return reject
            }
        case 1, 2, 3: return (0x80...0xBF).contains(b) ? u - 1 : reject
        case 4: return (0xA0...0xBF).contains(b) ? 1 : reject
        case 5: return (0x80...0x9F).contains(b) ? 1 : reject
        case 6: return (0x90...0xBF).contains(b) ? 2 : reject
        case 7: return (0x80...0x8F).contains(b) ? 2 : reject
        case 8: return b == 0x80 ? 9 : (0x81...0xBF).contains(b) ? 1 : reject
        case 9: return b == 0xA8 || b == 0xA9 ? reject : (0x80...0xBF).contains(b) ? 0 : reject
        default: return reject
        }
    }
}
