/// Byte-pair encoding of one pre-tokenized word, in the model's own piece space.
///
/// Three tokenizer families differ only in details, all captured here:
/// - tiktoken: units are bytes; the whole word is looked up first; the adjacent pair whose concatenation is the
///   lowest-ranked token merges first (rank = id).
/// - Hugging Face BPE: units are bytes (ByteLevel) or characters; the pair with the lowest rank in the `merges`
///   list merges first; `ignore_merges` looks the whole word up first; characters outside the vocabulary become
///   `<0xNN>` byte tokens before merging (byte fallback) or `unk`.
/// - SentencePiece BPE: units are characters; the pair whose concatenation is the piece with the highest score
///   merges first, so scores are turned into ranks; unknown symbols fall back to bytes after merging.
/// In every family ties between equal ranks go to the leftmost pair. Short words (most of them) use a flat
/// array and a linear scan for the best pair; long words use a binary heap over a linked list, O(n log n).
/// SentencePiece-style text, one long word, is first cut where no merge can cross (`WordCuts.swift`), and
/// short words already seen come from a per-encoder `WordCache`.
struct BPEModel: Sendable {
    enum Ranking: Sendable {
        /// Rank of the piece formed by concatenating two adjacent symbols, indexed by piece id.
        case concatenation(RankTable)
        /// Concatenation ranking with every pair of known pieces precomputed (`PairTable(splitting:ranks:)`):
        /// only a pair with an unknown symbol (SentencePiece falls back after merging) looks joined bytes up.
        case concatenationWithPairs(RankTable, PairTable)
        /// A merges list.
        case pairs(PairTable)
    }

    enum Unit: Sendable { case byte, character }

    /// Model-space pieces that merges and lookups may produce.
    let pieces: PieceTable
    let ranking: Ranking
    let unit: Unit
    /// Look the whole word up before merging (tiktoken, `ignore_merges`).
    let wholeWordFirst: Bool
    /// Token ids of `<0x00>` ... `<0xFF>`, when the model falls back to bytes for unknown characters.
    let byteFallback: [Int32]?
    /// Apply byte fallback / unk to unknown characters before merging (Hugging Face) instead of after
    /// (SentencePiece).
    let fallbackBeforeMerging: Bool
    let unknownID: Int32?
    /// Consecutive unknown characters give one `unk` (Hugging Face `fuse_unk`; SentencePiece always).
    let fuseUnknown: Bool
    /// SentencePiece USER_DEFINED pieces: matched whole in the text before merging and never merged further.
    var userDefined: AddedTokenMatcher? = nil

    /// Words with at most this many initial symbols use the flat scan (tests set 0 to check the heap path).
    var shortWordLimit = 16
    /// Set by `enableWordCuts(before:)` when some cuts inside a word provably cannot change its ids (see
    /// `WordCuts.swift`): SentencePiece-style text is one long word, and short parts merge far faster.
    /// Set only through `enableWordCuts(before:)` (and the test hook `disableWordCuts()`).
    var cutRules: WordCutRules? = nil

    static let noMerge: UInt64 = .max
    static let frozenFlag: UInt8 = 1
    static let unknownRunFlag: UInt8 = 2

    /// Appends the ids of word `p[0..<n]` to `out`.
    func encode(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout [Int], scratch: BPEScratch) {
        guard n > 0 else { return }
        if let cutRules {
            encodeInParts(p, n, cutRules, into: &out, scratch: scratch)
        } else {
            encodeWhole(p, n, into: &out, scratch: scratch)
        }
    }

    /// Appends the ids of word `p[0..<n]` (non-empty), merged as one unit.
    func encodeWhole(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout [Int], scratch: BPEScratch) {
        if wholeWordFirst {
            let id = pieces.lookup(p, n)
            if id >= 0 { out.append(Int(id)); return }
        }
        if n <= WordCache.maxBytes, let cache = scratch.cacheForNextWord() {
            let h = WordCache.hash(p, n)
            if cache.lookup(h, p, n, into: &out) { return }
            let from = out.count
            merge(p, n, into: &out, scratch: scratch)
            cache.store(h, p, n, ids: out, from: from)
        } else {
            merge(p, n, into: &out, scratch: scratch)
        }
    }

    /// BPE proper: initial symbols, merges, then the ids (with byte fallback or unk for unknown symbols).
    private func merge(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout [Int], scratch: BPEScratch) {
        scratch.reserve(n)
        let count = initialSymbols(p, n, scratch)
        let tables = MergeTables(ranking)
        if count <= shortWordLimit {
            mergeShort(p, count, scratch, tables)
            emitShort(p, count: scratch.liveCount, scratch, &out)
        } else {
            mergeLong(p, count, scratch, tables)
            emitLinked(p, scratch, &out)
        }
    }

    /// Splits the word into units (bytes or characters, user-defined pieces whole); returns the symbol count.
    @inline(__always)
    private func initialSymbols(_ p: UnsafePointer<UInt8>, _ n: Int, _ s: BPEScratch) -> Int {
        let start = s.start, end = s.end, ids = s.id, flags = s.flags
        var count = 0
        @inline(__always) func push(_ a: Int, _ b: Int, _ id: Int32, _ flag: UInt8) {
            start[count] = Int32(a); end[count] = Int32(b); ids[count] = id; flags[count] = flag
            count += 1
        }
        let word = UnsafeBufferPointer(start: p, count: n)
        var i = 0
        while i < n {
            if let userDefined, let hit = userDefined.match(word, at: i) {
                push(i, i + hit.length, Int32(hit.id), Self.frozenFlag)
                i += hit.length
                continue
            }
            var len = 1
            if unit == .character {
                let lead = p[i]
                len = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                if i + len > n { len = n - i }
            }
            let id = pieces.lookup(p + i, len)
            if id < 0 && fallbackBeforeMerging {
                if let fallback = byteFallback {
                    for k in 0..<len { push(i + k, i + k + 1, fallback[Int(p[i + k])], 0) }
                } else if let unk = unknownID {
                    if fuseUnknown && count > 0 && flags[count - 1] & Self.unknownRunFlag != 0 {
                        end[count - 1] = Int32(i + len)
                    } else {
                        push(i, i + len, unk, Self.unknownRunFlag)
                    }
                } else {
                    push(i, i + len, -1, 0)
                }
            } else {
                push(i, i + len, id, 0)
            }
            i += len
        }
        return count
    }

    /// Raw views of the ranking tables, taken once per word: switching on `ranking` per pair would retain and
    /// release its table objects every time. Valid while `ranking` (which owns the tables) lives.
    struct MergeTables {
        /// Piece ranks by id: merges by the joined bytes (concatenation ranking), used when a pair table cannot
        /// answer.
        var ranks: UnsafeMutablePointer<UInt32>? = nil
        var pairs: PairTable.Raw? = nil

        @inline(__always)
        init(_ ranking: Ranking) {
            switch ranking {
            case .concatenation(let r): ranks = r.storage.ranks
            case .pairs(let t): pairs = t.raw
            case .concatenationWithPairs(let r, let t): ranks = r.storage.ranks; pairs = t.raw
            }
        }
    }

    /// `(rank << 32 | merged id)` of merging symbols `l` and `r`, or `noMerge`.
    @inline(__always)
    private func mergeValue(_ l: Int, _ r: Int, _ p: UnsafePointer<UInt8>, _ s: BPEScratch, _ t: MergeTables) -> UInt64 {
        if (s.flags[l] | s.flags[r]) & Self.frozenFlag != 0 { return Self.noMerge }
        let a = s.id[l], b = s.id[r]
        if let pairs = t.pairs, a >= 0, b >= 0 { return pairs.lookup(a, b) ?? Self.noMerge }
        // Concatenation ranking: the piece spelled by the joined bytes (an unknown symbol may be part of one).
        guard let ranks = t.ranks else { return Self.noMerge }
        let start = Int(s.start[l])
        let id = pieces.lookup(p + start, Int(s.end[r]) - start)
        guard id >= 0 else { return Self.noMerge }
        return UInt64(ranks[Int(id)]) << 32 | UInt64(UInt32(id))
    }

    /// Flat scan: the pair values of adjacent symbols live in `key`; merging removes one slot.
    private func mergeShort(_ p: UnsafePointer<UInt8>, _ n: Int, _ s: BPEScratch, _ t: MergeTables) {
        var count = n
        let key = s.key
        for k in 0..<(count - 1) { key[k] = mergeValue(k, k + 1, p, s, t) }
        if count > 0 { key[count - 1] = Self.noMerge }
        while count > 1 {
            // Lowest rank, leftmost on ties (strict < keeps the first).
            var best = 0
            var bestValue = key[0]
            for k in 1..<(count - 1) where key[k] >> 32 < bestValue >> 32 {
                best = k
                bestValue = key[k]
            }
            if bestValue == Self.noMerge { break }
            let start = s.start, end = s.end, id = s.id, flags = s.flags
            end[best] = end[best + 1]
            id[best] = Int32(truncatingIfNeeded: bestValue & 0xFFFF_FFFF)
            flags[best] = 0
            // Close the gap with one loop over the few symbols after it (five memmove calls cost more).
            var k = best + 1
            while k < count - 1 {
                start[k] = start[k + 1]; end[k] = end[k + 1]; id[k] = id[k + 1]; flags[k] = flags[k + 1]
                key[k] = key[k + 1]
                k += 1
            }
            count -= 1
            key[best] = best + 1 < count ? mergeValue(best, best + 1, p, s, t) : Self.noMerge
            if best > 0 { key[best - 1] = mergeValue(best - 1, best, p, s, t) }
        }
        s.liveCount = count
    }

    @inline(__always)
    private func emitSymbol(_ k: Int, _ p: UnsafePointer<UInt8>, _ s: BPEScratch, _ out: inout [Int], _ previousUnknown: inout Bool) {
        let id = s.id[k]
        let wasUnknown = previousUnknown
        previousUnknown = false
        if id >= 0 {
            out.append(Int(id))
        } else if let fallback = byteFallback {
            for b in Int(s.start[k])..<Int(s.end[k]) { out.append(Int(fallback[Int(p[b])])) }
        } else if let unk = unknownID {
            if !(fuseUnknown && wasUnknown) { out.append(Int(unk)) }
            previousUnknown = true
        } else {
            // Unreachable by construction: loaders refuse models that can meet an unknown symbol with
            // neither byte fallback nor unk (byte-level vocabularies must hold all 256 bytes).
            assertionFailure("BPE met an unknown symbol with no fallback")
        }
    }

    private func emitShort(_ p: UnsafePointer<UInt8>, count: Int, _ s: BPEScratch, _ out: inout [Int]) {
        var previousUnknown = false
        for k in 0..<count { emitSymbol(k, p, s, &out, &previousUnknown) }
    }

    /// Heap over a linked list of symbols; a candidate is stale once either side changed.
    private func mergeLong(_ p: UnsafePointer<UInt8>, _ n: Int, _ s: BPEScratch, _ t: MergeTables) {
        let prev = s.prev, next = s.next
        for k in 0..<n {
            prev[k] = Int32(k - 1)
            next[k] = k + 1 < n ? Int32(k + 1) : -1
        }
        s.heapCount = 0
        @inline(__always) func consider(_ l: Int32, _ r: Int32) {
            guard l >= 0, r >= 0 else { return }
            let v = mergeValue(Int(l), Int(r), p, s, t)
            guard v != Self.noMerge else { return }
            s.push(.init(key: (v >> 32) << 32 | UInt64(UInt32(s.start[Int(l)])), left: l, right: r,
                         length: s.end[Int(r)] - s.start[Int(l)], merged: Int32(truncatingIfNeeded: v & 0xFFFF_FFFF)))
        }
        for k in 0..<(n - 1) { consider(Int32(k), Int32(k + 1)) }
        while let top = s.pop() {
            let l = Int(top.left), r = Int(top.right)
            guard s.start[l] >= 0, s.start[r] >= 0, next[l] == top.right,
                  s.end[r] - s.start[l] == top.length else { continue }
            s.end[l] = s.end[r]
            s.id[l] = top.merged
            s.flags[l] = 0
            s.start[r] = -1
            let after = next[r]
            next[l] = after
            if after >= 0 { prev[Int(after)] = top.left }
            consider(prev[l], top.left)
            consider(top.left, after)
        }
    }

    private func emitLinked(_ p: UnsafePointer<UInt8>, _ s: BPEScratch, _ out: inout [Int]) {
        var previousUnknown = false
        var k: Int32 = 0
        while k >= 0 {
            emitSymbol(Int(k), p, s, &out, &previousUnknown)
            k = s.next[Int(k)]
        }
    }
}

/// Piece ranks for concatenation ranking, in raw immutable storage.
struct RankTable: Sendable {
    /// `@unchecked Sendable`: written only in `init`, read-only afterwards.
    final class Storage: @unchecked Sendable {
        let ranks: UnsafeMutablePointer<UInt32>
        init(_ values: [UInt32]) {
            ranks = .allocate(capacity: max(values.count, 1))
            ranks.initialize(from: values, count: values.count)
        }
        deinit { ranks.deallocate() }
    }
    let storage: Storage
    init(_ values: [UInt32]) { storage = Storage(values) }
}

/// Reusable working memory for `BPEModel.encode`, grown to the longest word seen so far: encoding a word
/// allocates nothing. Raw buffers rather than arrays keep the inner loop free of bounds and exclusivity checks
/// (every index is below `capacity`, which `reserve` guarantees). Not `Sendable`: one per encoder.
final class BPEScratch {
    struct Candidate {
        /// rank << 32 | start byte of the left symbol: lowest rank first, then leftmost.
        var key: UInt64
        var left: Int32
        var right: Int32
        var length: Int32
        var merged: Int32
    }

    private(set) var capacity = 0
    private(set) var start = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var end = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var id = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    private(set) var key = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    private(set) var prev = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var next = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// At most n - 1 initial candidates plus 2 per merge: below 3n.
    private(set) var heap = UnsafeMutablePointer<Candidate>.allocate(capacity: 1)
    var heapCount = 0
    var liveCount = 0
    /// Made once this scratch has encoded `wordCacheAfter` words, so a one-off short encode does not pay for it.
    private(set) var wordCache: WordCache? = nil
    private var wordsBeforeCache = 0
    static let wordCacheAfter = 256
    /// Test hook: never cache.
    var cachesWords = true

    /// The word cache, counting this word towards making it.
    @inline(__always)
    func cacheForNextWord() -> WordCache? {
        if let wordCache { return wordCache }
        wordsBeforeCache += 1
        if wordsBeforeCache >= Self.wordCacheAfter && cachesWords { wordCache = WordCache() }
        return wordCache
    }

    init() { reserve(64) }

    deinit { free() }

    private func free() {
        start.deallocate(); end.deallocate(); id.deallocate(); flags.deallocate()
        key.deallocate(); prev.deallocate(); next.deallocate(); heap.deallocate()
    }

    /// Room for a word of `n` bytes (at most `n` symbols).
    @inline(__always)
    func reserve(_ n: Int) {
        guard n > capacity else { return }
        free()
        let c = max(n, capacity * 2)
        start = .allocate(capacity: c); end = .allocate(capacity: c); id = .allocate(capacity: c)
        flags = .allocate(capacity: c); key = .allocate(capacity: c); prev = .allocate(capacity: c)
        next = .allocate(capacity: c); heap = .allocate(capacity: 3 * c + 3)
        capacity = c
    }

    @inline(__always)
    func push(_ c: Candidate) {
        var i = heapCount
        heapCount += 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if heap[parent].key <= c.key { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = c
    }

    @inline(__always)
    func pop() -> Candidate? {
        guard heapCount > 0 else { return nil }
        let top = heap[0]
        heapCount -= 1
        let n = heapCount
        if n == 0 { return top }
        let last = heap[n]
        var i = 0
        while true {
            let l = 2 * i + 1
            if l >= n { break }
            var child = l
            if l + 1 < n && heap[l + 1].key < heap[l].key { child = l + 1 }
            if heap[child].key >= last.key { break }
            heap[i] = heap[child]
            i = child
        }
        heap[i] = last
        return top
    }
}
