/// Byte-pair encoding of one pre-tokenized word, in the model's own piece space.
///
/// Three tokenizer families differ only in details, all captured here:
/// - tiktoken: units are bytes; the whole word is looked up first; the adjacent pair whose concatenation is the
///   lowest-ranked token merges first (rank = id).
/// - Hugging Face BPE: units are bytes (ByteLevel) or characters; the pair with the lowest rank in the `merges`
///   list merges first; `ignore_merges` looks the whole word up first; characters outside the vocabulary become
///   `<0xNN>` byte tokens before merging (byte fallback) or `unk`.
/// - SentencePiece BPE: units are characters; the pair whose concatenation is the piece with the highest score
///   merges first (ties: leftmost), so scores are turned into ranks; unknown symbols fall back to bytes after
///   merging.
/// In every family ties between equal ranks go to the leftmost pair. Merging uses a binary heap over a linked
/// list of symbols, so a long word (SentencePiece encodes a whole text as one word) costs O(n log n).
struct BPEModel: Sendable {
    enum Ranking: Sendable {
        /// Rank of the piece formed by concatenating two adjacent symbols, indexed by piece id.
        case concatenation(ranks: [UInt32])
        /// `(left id << 32 | right id)` → `(rank << 32 | merged id)`, from a merges list.
        case pairs([UInt64: UInt64])
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

    /// Appends the ids of word `p[0..<n]` to `out`.
    func encode(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout [Int], scratch: BPEScratch) {
        guard n > 0 else { return }
        if wholeWordFirst {
            let id = pieces.lookup(p, n)
            if id >= 0 { out.append(Int(id)); return }
        }
        scratch.reset()
        let word = UnsafeBufferPointer(start: p, count: n)
        var i = 0
        while i < n {
            if let userDefined, let hit = userDefined.match(word, at: i) {
                scratch.append(start: i, end: i + hit.length, id: Int32(hit.id))
                scratch.frozen[scratch.count - 1] = true
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
                    for k in 0..<len { scratch.append(start: i + k, end: i + k + 1, id: fallback[Int(p[i + k])]) }
                } else if let unk = unknownID {
                    if fuseUnknown, let last = scratch.lastIndex, scratch.id[last] == unk, scratch.unknownRun[last] {
                        scratch.end[last] = Int32(i + len)
                    } else {
                        scratch.append(start: i, end: i + len, id: unk)
                        scratch.unknownRun[scratch.count - 1] = true
                    }
                } else {
                    scratch.append(start: i, end: i + len, id: -1)
                }
            } else {
                scratch.append(start: i, end: i + len, id: id)
            }
            i += len
        }
        let count = scratch.count
        for k in 0..<count {
            scratch.prev.append(Int32(k - 1))
            scratch.next.append(k + 1 < count ? Int32(k + 1) : -1)
        }
        for k in 0..<(count - 1) { consider(Int32(k), Int32(k + 1), p, scratch) }
        while let top = scratch.popHeap() {
            let l = Int(top.left), r = Int(top.right)
            guard scratch.start[l] >= 0, scratch.start[r] >= 0, scratch.next[l] == top.right,
                  scratch.end[r] - scratch.start[l] == top.length else { continue }
            scratch.end[l] = scratch.end[r]
            scratch.id[l] = top.merged
            scratch.unknownRun[l] = false
            scratch.start[r] = -1
            let after = scratch.next[r]
            scratch.next[l] = after
            if after >= 0 { scratch.prev[Int(after)] = top.left }
            consider(scratch.prev[l], top.left, p, scratch)
            consider(top.left, after, p, scratch)
        }
        var k: Int32 = 0
        var previousUnknown = false
        while k >= 0 {
            let s = Int(k)
            let id = scratch.id[s]
            let wasUnknown = previousUnknown
            previousUnknown = false
            if id >= 0 {
                out.append(Int(id))
            } else if let fallback = byteFallback {
                for b in Int(scratch.start[s])..<Int(scratch.end[s]) { out.append(Int(fallback[Int(p[b])])) }
            } else if let unk = unknownID {
                if !(fuseUnknown && wasUnknown) { out.append(Int(unk)) }
                previousUnknown = true
            } else {
                // Unreachable by construction: loaders refuse models that can meet an unknown symbol with
                // neither byte fallback nor unk (byte-level vocabularies must hold all 256 bytes).
                assertionFailure("BPE met an unknown symbol with no fallback")
            }
            k = scratch.next[s]
        }
    }

    /// Pushes the merge of adjacent symbols `l`, `r` if the model has one.
    @inline(__always)
    private func consider(_ l: Int32, _ r: Int32, _ p: UnsafePointer<UInt8>, _ scratch: BPEScratch) {
        guard l >= 0, r >= 0, !scratch.frozen[Int(l)], !scratch.frozen[Int(r)] else { return }
        let start = scratch.start[Int(l)], end = scratch.end[Int(r)]
        let rank: UInt32, merged: Int32
        switch ranking {
        case .concatenation(let ranks):
            let id = pieces.lookup(p + Int(start), Int(end - start))
            guard id >= 0 else { return }
            rank = ranks[Int(id)]
            merged = id
        case .pairs(let table):
            let a = scratch.id[Int(l)], b = scratch.id[Int(r)]
            guard a >= 0, b >= 0, let v = table[UInt64(UInt32(a)) << 32 | UInt64(UInt32(b))] else { return }
            rank = UInt32(truncatingIfNeeded: v >> 32)
            merged = Int32(truncatingIfNeeded: v & 0xFFFF_FFFF)
        }
        scratch.pushHeap(.init(key: UInt64(rank) << 32 | UInt64(UInt32(start)), left: l, right: r,
                               length: end - start, merged: merged))
    }
}

/// Reusable working memory for `BPEModel.encode`: arrays keep their capacity between words, so encoding
/// allocates only when a word is longer than any seen before. Not `Sendable`: one per encoding call chain.
final class BPEScratch {
    struct Candidate {
        /// rank << 32 | start byte of the left symbol: lowest rank first, then leftmost.
        var key: UInt64
        var left: Int32
        var right: Int32
        var length: Int32
        var merged: Int32
    }

    var start: [Int32] = []
    var end: [Int32] = []
    var id: [Int32] = []
    var unknownRun: [Bool] = []
    var frozen: [Bool] = []
    var prev: [Int32] = []
    var next: [Int32] = []
    var heap: [Candidate] = []

    var count: Int { start.count }
    var lastIndex: Int? { start.isEmpty ? nil : start.count - 1 }

    func reset() {
        start.removeAll(keepingCapacity: true)
        end.removeAll(keepingCapacity: true)
        id.removeAll(keepingCapacity: true)
        unknownRun.removeAll(keepingCapacity: true)
        frozen.removeAll(keepingCapacity: true)
        prev.removeAll(keepingCapacity: true)
        next.removeAll(keepingCapacity: true)
        heap.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    func append(start s: Int, end e: Int, id i: Int32) {
        start.append(Int32(s))
        end.append(Int32(e))
        id.append(i)
        unknownRun.append(false)
        frozen.append(false)
    }

    func pushHeap(_ c: Candidate) {
        heap.append(c)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if heap[parent].key <= c.key { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = c
    }

    func popHeap() -> Candidate? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if heap.isEmpty { return top }
        var i = 0
        let n = heap.count
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
