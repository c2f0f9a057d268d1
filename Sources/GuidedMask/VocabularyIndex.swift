import GuidedTokenizers
import GuidedSync

/// A vocabulary prepared for masking: its token trie and flat copies of the token bytes, built once per
/// vocabulary (about 100 ms for 152k tokens) and shared by every grammar compiled against it, so that
/// compiling a grammar costs about a millisecond.
///
/// Immutable after `init`; the raw buffers let the mask walk index without bounds checks or reference
/// counting, and are freed with the object.
public final class VocabularyIndex: @unchecked Sendable {
    // @unchecked: the buffers below are written only in `init`, never mutated, and freed in `deinit`;
    // every other stored property is an immutable Sendable value.
    public let vocabulary: TokenVocabulary
    public let trie: TokenTrie
    /// Words of a token mask: `(vocabulary.size + 31) / 32`.
    public let maskWords: Int

    let nodes: UnsafeMutableBufferPointer<TokenTrie.Node>
    let tokenBytes: UnsafeMutableBufferPointer<UInt8>
    let tokenOffsets: UnsafeMutableBufferPointer<UInt32>
    /// `(primary, duplicate)` token pairs, flattened.
    let duplicatePairs: UnsafeMutableBufferPointer<UInt32>
    /// The end-of-sequence ids within the vocabulary's size, for the end of every mask.
    let maskEOS: UnsafeMutableBufferPointer<Int>
    /// Plain-string-text token sets, widest first (see `TokenSlice`).
    let slices: [TokenSlice]
    /// `exactSlices[r]`: the plain tokens of at most r characters (r < `exactSliceBound`), sharing the
    /// unbounded slice's rest trie, for string positions with exactly r characters of room left.
    let exactSlices: [TokenSlice]
    static let exactSliceBound = 16
    /// Per token: its characters if it is plain JSON string text (capped at 255), else 0
    /// (`TokenSlice.plainCharacterCounts`).
    let plainCounts: [UInt8]
    /// Character bounds of the bounded slices: a state needs this many characters of room to use one.
    static let sliceBounds = [Int.max, 16, 8]
    /// Per token: the printable ASCII characters it holds if it is plain text (for gap slices).
    let plainASCII: [ASCIISet]
    /// Per printable ASCII character (index `b - 0x20`): the plain tokens holding it. A gap slice
    /// excluding a character held by more than `maxGapTokens` is refused without a pass over the tokens.
    let plainTokensHolding: [Int]
    /// Gap slices made so far, by excluded set and character bound (nil: too many gap tokens).
    private let gapSlices = Locked<[GapKey: TokenSlice?]>([:])
    private struct GapKey: Hashable { var excluded: ASCIISet; var maxCharacters: Int }
    /// Token sets of printable ASCII classes, and the trie summaries that let a walk skip them.
    let classSlices: ClassSlices
    /// `plainTails(after:)`, by r (all of them, once `init` is done).
    private let plainTailGroups = Locked<[Int: SuffixGroups]>([:])
    /// `quoteTokens`, once made.
    private let quoteIndex = Locked<QuoteTokens?>(nil)
    /// A gap slice is made only when at most this many plain tokens are left to its trie (built on first
    /// use, walked for every new state that uses the slice).
    static let maxGapTokens = 8_192
    static let maxGapSlices = 64

    public init(_ vocabulary: TokenVocabulary) throws(GrammarCompileError) {
        self.vocabulary = vocabulary
        do {
            trie = try TokenTrie(vocabulary: vocabulary)
        } catch {
            throw .vocabulary(error.description)
        }
        maskWords = (vocabulary.size + 31) / 32
        nodes = .allocate(capacity: max(1, trie.nodes.count))
        _ = nodes.initialize(from: trie.nodes)
        tokenBytes = .allocate(capacity: max(1, vocabulary.bytes.count))
        _ = tokenBytes.initialize(from: vocabulary.bytes)
        tokenOffsets = .allocate(capacity: vocabulary.offsets.count)
        _ = tokenOffsets.initialize(from: vocabulary.offsets)
        // Raw buffers, like the trie's: every mask reads them, from every thread, and an array would be
        // retained and released there (a reference count all threads write).
        duplicatePairs = .copying(trie.duplicates.flatMap { [$0.primary, $0.duplicate] })
        maskEOS = .copying(vocabulary.eosTokenIDs.filter { $0 >= 0 && $0 < vocabulary.size })
        let counts = TokenSlice.plainCharacterCounts(vocabulary)
        plainCounts = counts
        var ascii = [ASCIISet](repeating: ASCIISet(), count: counts.count)
        for id in 0..<counts.count where counts[id] > 0 {
            for b in vocabulary.tokenBytes(id) where b < 0x80 { ascii[id].insert(b) }
        }
        plainASCII = ascii
        // By set bit (a token holds a few characters): 96 tests per token were ~15 M for Qwen2.
        var holding = [Int](repeating: 0, count: 0x60)
        for set in ascii where !set.isEmpty {
            var low = set.low, high = set.high
            while low != 0 { holding[low.trailingZeroBitCount] += 1; low &= low - 1 }
            while high != 0 { holding[0x40 + high.trailingZeroBitCount] += 1; high &= high - 1 }
        }
        plainTokensHolding = holding
        var built: [TokenSlice] = []
        for bound in Self.sliceBounds {
            do {
                built.append(try TokenSlice(vocabulary: vocabulary, counts: counts, maxCharacters: bound, maskWords: maskWords))
            } catch {
                throw .vocabulary(error.description)
            }
        }
        slices = built
        // Index r is the room r; index 0 is never used (`exactRoom` finds a room of at least 1).
        exactSlices = (0..<Self.exactSliceBound).map { TokenSlice(plainUpTo: $0, counts: counts, sharing: built[0]) }
        classSlices = ClassSlices(trie: trie, vocabulary: vocabulary, maskWords: maskWords)
        // Every room's tails, made here with the rest of the index (Qwen2: 10 ms for the fifteen, 590k
        // pairs). Made on first use, each cost 0.2-1.5 ms in the first mask that had its room at a
        // block end, whichever schema that was: a spike a server would see in some request.
        for r in 1..<Self.exactSliceBound { _ = plainTails(after: r) }
    }

    deinit {
        nodes.deallocate()
        tokenBytes.deallocate()
        tokenOffsets.deallocate()
        duplicatePairs.deallocate()
        maskEOS.deallocate()
    }

    var nodeCount: Int { trie.nodes.count }

    /// What a first-visit check (a slice check, a plain-text proof) may spend to spare a trie walk, as a
    /// share of the budgets set for Qwen2's trie (333k nodes; `referenceTrieNodes` is a little under it,
    /// so Qwen2 and larger vocabularies get the full budgets): a smaller trie is walked in proportionally
    /// less time, and a check that costs more than the walk saves nothing (a fuzzed grammar spent
    /// seconds in proofs against a 300-token vocabulary whose walk takes microseconds). At most 1, and at
    /// least `minCheckWorkShare`, so small vocabularies keep the checks for small grammars.
    var checkWorkShare: Double {
        min(1, max(Self.minCheckWorkShare, Double(nodeCount) / Double(Self.referenceTrieNodes)))
    }
    static let referenceTrieNodes = 300_000
    static let minCheckWorkShare = 1.0 / 32

    /// `budget` (set for Qwen2's trie) scaled to this vocabulary's (`checkWorkShare`).
    func checkBudget(_ budget: Int) -> Int { Int(Double(budget) * checkWorkShare) }

    /// The token whose bytes are exactly `text`: a special token first (the lowest id among them), else
    /// the token at the end of `text`'s path in the trie (its lowest id, for tokens with the same bytes).
    /// What a grammar's `.token(.text)` resolves to.
    public func tokenID(text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        if let special = vocabulary.specialTokenIDs.sorted().first(where: { vocabulary.tokenBytes($0).elementsEqual(bytes) }) {
            return special
        }
        var i = 0, end = trie.nodes.count
        var found: Int? = nil
        for (depth, b) in bytes.enumerated() {
            var hit = -1
            while i < end {
                let n = trie.nodes[i]
                if n.byte == b { hit = i; break }
                i += n.subtreeSize
            }
            guard hit >= 0 else { return nil }
            let n = trie.nodes[hit]
            if depth == bytes.count - 1 { found = n.hasToken ? Int(n.token) : nil }
            i = hit + 1
            end = hit + n.subtreeSize
        }
        guard let primary = found else { return nil }
        let duplicates = trie.duplicates.filter { Int($0.primary) == primary }.map { Int($0.duplicate) }
        return ([primary] + duplicates).min()
    }

    /// The gap slice excluding `excluded`, of plain tokens up to `maxCharacters` characters (see
    /// `TokenSlice.init(excluding:)`), made on first use; nil when more than `maxGapTokens` plain tokens
    /// are left to its trie, or past `maxGapSlices` slices.
    func gapSlice(excluding excluded: ASCIISet, maxCharacters: Int = Int.max) -> TokenSlice? {
        guard gapMayFit(excluding: excluded) else { return nil }
        let key = GapKey(excluded: excluded, maxCharacters: maxCharacters)
        return gapSlices.withLock { cache -> TokenSlice? in
            if let known = cache[key] { return known }
            guard cache.count < Self.maxGapSlices else { return nil }
            var gapTokens: [UInt32] = []
            var bits = [UInt32](repeating: 0, count: maskWords)
            var made: TokenSlice? = nil
            for id in 0..<plainASCII.count where plainCounts[id] > 0 {
                if plainASCII[id].intersects(excluded) || Int(plainCounts[id]) > maxCharacters {
                    gapTokens.append(UInt32(id))
                    if gapTokens.count > Self.maxGapTokens { break }
                } else {
                    bits[id >> 5] |= 1 << UInt32(id & 31)
                }
            }
            if gapTokens.count <= Self.maxGapTokens {
                made = try? TokenSlice(excluding: excluded, maxCharacters: maxCharacters, gapTokens: gapTokens, members: bits,
                                       vocabulary: vocabulary, sharing: slices[0])
            }
            cache[key] = made
            return made
        }
    }

    /// The plain tokens of more than r characters (1 <= r < `exactSliceBound`), each as the tail after
    /// its first r characters, grouped (`SuffixGroups`): what goes on in the caller at the end of a
    /// rule that returns after exactly r more characters (the last positions of a long string's block,
    /// `LongRepeatBlocks`), when the caller may read any plain character next. Every grammar and state
    /// with that room shares them: all are made when the index is (`init`; 0.2-1.5 ms each for Qwen2's
    /// 1-130k tails).
    func plainTails(after r: Int) -> SuffixGroups {
        precondition(r >= 1 && r < Self.exactSliceBound)
        if let known = plainTailGroups.withLock({ $0[r] }) { return known }
        let (pairs, characters) = plainTailPairs(after: r) { _ in true }
        let groups = SuffixGroups(pairs: pairs, bytes: tokenBytes.baseAddress!, offsets: tokenOffsets.baseAddress!, tailCharacters: characters)
        return plainTailGroups.withLock { made in
            if let known = made[r] { return known }
            made[r] = groups
            return groups
        }
    }

    /// The plain tokens of more than r characters whose tail after their first r characters begins with a
    /// byte `keep` accepts: each as a (token << 16 | tail's byte offset) pair, with the tail's character
    /// count (0 past 254). Listed from the character counts instead of walked from the trie.
    func plainTailPairs(after r: Int, keeping keep: (UInt8) -> Bool) -> (pairs: [UInt64], characters: [UInt8]) {
        var pairs: [UInt64] = [], characters: [UInt8] = []
        for id in 0..<plainCounts.count where Int(plainCounts[id]) > r {
            let start = Int(tokenOffsets[id])
            var k = start
            for _ in 0..<r { k += TokenSlice.utf8Length(lead: tokenBytes[k]) }
            guard keep(tokenBytes[k]) else { continue }
            pairs.append(UInt64(id) << 16 | UInt64(k - start))
            characters.append(plainCounts[id] == 255 ? 0 : plainCounts[id] - UInt8(r))
        }
        return (pairs, characters)
    }

    /// The tokens that can close a JSON string (`QuoteTokens`), made on first use (a pass over the
    /// vocabulary's bytes) and shared by every grammar with an array of distinct strings.
    var quoteTokens: QuoteTokens {
        if let known = quoteIndex.withLock({ $0 }) { return known }
        let made = QuoteTokens(self)
        return quoteIndex.withLock { index in
            if let known = index { return known }
            index = made
            return made
        }
    }

    /// The rooms r whose `plainTails(after:)` are made.
    var plainTailsMade: [Int] { plainTailGroups.withLock { $0.keys.sorted() } }

    /// False when some excluded character alone leaves more than `maxGapTokens` plain tokens to a gap
    /// slice's trie (no gap slice can be made); 96 lookups.
    func gapMayFit(excluding excluded: ASCIISet) -> Bool {
        for b in UInt8(0x20)..<UInt8(0x80) where excluded.contains(b) && plainTokensHolding[Int(b) - 0x20] > Self.maxGapTokens {
            return false
        }
        return true
    }

    /// Bytes held beyond the `TokenVocabulary` itself (trie and flat copies).
    public var memoryFootprint: Int {
        trie.memoryFootprint + nodes.count * 8 + tokenBytes.count + tokenOffsets.count * 4
            + slices.reduce(0) { $0 + $1.byteCount } + exactSlices.reduce(0) { $0 + $1.byteCount } + plainCounts.count
            + plainASCII.count * MemoryLayout<ASCIISet>.stride + plainTokensHolding.count * 8
            + gapSlices.withLock { $0.values.reduce(0) { $0 + ($1?.byteCount ?? 0) } } + classSlices.byteCount
            + plainTailGroups.withLock { $0.values.reduce(0) { $0 + $1.byteCount } }
    }
}
