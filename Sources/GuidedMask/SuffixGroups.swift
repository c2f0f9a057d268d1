/// The tokens of a mask-cache entry that end the state's rule and go on in the caller, grouped by what
/// the caller must read.
///
/// In a string, `abc",` `xyz",` and `",` are decided by one question at mask time: does the real stack
/// below, after the string returns, read `,`? Checked token by token (the old uncertain list), each of
/// hundreds of tokens replayed its own prefix and the return; grouped, each distinct tail is walked once
/// from the caller's frame and its verdict applies to every token of the group.
struct SuffixGroups: Sendable {
    /// Per group, its tail: bytes `offset...` of token `token`, packed as `token << 16 | offset`. Sorted
    /// by tail bytes, so neighbouring tails share their walked prefix.
    let tails: [UInt64]
    /// Tokens of group g: `tokens[end[g - 1] ..< end[g]]` (from 0 for the first group).
    let end: [Int32]
    let tokens: [UInt32]
    /// Per group: its tail's characters if the tail is plain JSON string text (`TokenSlice`), capped at
    /// 255, else 0. A caller frame whose state takes a slice of n characters reads every plain tail of
    /// at most n characters, so those groups need no walk (`walkSuffixes`).
    let plainCharacters: [UInt8]
    /// With many pairs (`bucketMinimum`), the pairs whose tail is plain text of at most
    /// `bucketCharacters` characters are not grouped but kept by the tail's characters: those of c
    /// characters are `plainPairs[plainEnd[c - 1] ..< plainEnd[c]]` (c = 1 ... `bucketCharacters`;
    /// `plainEnd[0]` = 0; empty when not bucketed). At a block's end nearly the whole vocabulary
    /// crosses into the caller with a short plain tail, and sorting 100k+ tails to group them was most
    /// of a 15-20 ms mask. A caller that takes a slice of n characters reads every plain tail of at most
    /// n characters, so those buckets are set without grouping or walking (`walkSuffixes`). Longer plain
    /// tails stay in the groups, so under the 16-character slice a mask groups nothing; only a caller
    /// with less room (the last characters of a string's maximum) groups the buckets it does not cover,
    /// at mask time.
    let plainEnd: [Int32]
    let plainPairs: [UInt64]

    /// Pairs from which short plain tails are bucketed rather than grouped.
    static let bucketMinimum = 4_096
    /// The longest bucketed tail: the widest bounded slice's characters.
    static let bucketCharacters = 16

    static let empty = SuffixGroups(tails: [], end: [], tokens: [], plainCharacters: [], plainEnd: [], plainPairs: [])

    var isEmpty: Bool { tails.isEmpty && plainPairs.isEmpty }
    /// The (token, tail) pairs held, grouped or bucketed.
    var pairCount: Int { tokens.count + plainPairs.count }

    /// The arrays as unsafe buffers, for the walk at mask time. The entry holding these groups is read by
    /// every thread masking its state: copying one of its arrays, slicing it or capturing the struct in a
    /// closure retains the array, and a reference count is a cache line that all those threads write.
    struct View {
        let tails: UnsafeBufferPointer<UInt64>
        let end: UnsafeBufferPointer<Int32>
        let tokens: UnsafeBufferPointer<UInt32>
        let plainCharacters: UnsafeBufferPointer<UInt8>
        let plainEnd: UnsafeBufferPointer<Int32>
        let plainPairs: UnsafeBufferPointer<UInt64>
    }

    /// Calls `body` with the groups' buffers, valid during the call.
    @inline(__always)
    func withView<R>(_ body: (View) -> R) -> R {
        tails.withUnsafeBufferPointer { tails in
            end.withUnsafeBufferPointer { end in
                tokens.withUnsafeBufferPointer { tokens in
                    plainCharacters.withUnsafeBufferPointer { plainCharacters in
                        plainEnd.withUnsafeBufferPointer { plainEnd in
                            plainPairs.withUnsafeBufferPointer { plainPairs in
                                body(View(tails: tails, end: end, tokens: tokens, plainCharacters: plainCharacters,
                                          plainEnd: plainEnd, plainPairs: plainPairs))
                            }
                        }
                    }
                }
            }
        }
    }
    var byteCount: Int { tails.count * 9 + end.count * 4 + tokens.count * 4 + plainEnd.count * 4 + plainPairs.count * 8 }

    private init(tails: [UInt64], end: [Int32], tokens: [UInt32], plainCharacters: [UInt8], plainEnd: [Int32], plainPairs: [UInt64]) {
        self.tails = tails; self.end = end; self.tokens = tokens; self.plainCharacters = plainCharacters
        self.plainEnd = plainEnd; self.plainPairs = plainPairs
    }

    /// Groups `pairs` (`token << 16 | offset`, as the cache walk collects them) by tail bytes; with
    /// `bucketing` and at least `bucketMinimum` pairs, plain tails go to buckets instead.
    /// `tailCharacters[i]`, when given and not 0: the plain characters of pair i's tail, already known.
    init(pairs allPairs: [UInt64], bytes: UnsafeMutablePointer<UInt8>, offsets: UnsafeMutablePointer<UInt32>, bucketing: Bool = true,
         tailCharacters: [UInt8]? = nil) {
        var pairs = allPairs
        var plainEnd: [Int32] = [], plainPairs: [UInt64] = []
        if bucketing && allPairs.count >= Self.bucketMinimum {
            // Counting sort of the short plain tails by characters; the others are grouped below.
            let buckets = Self.bucketCharacters + 1
            var characters = [UInt8](repeating: 0, count: allPairs.count)
            var count = [Int32](repeating: 0, count: buckets)
            pairs = []
            for (i, p) in allPairs.enumerated() {
                let tok = Int(p >> 16), skip = Int(p & 0xFFFF)
                let known = tailCharacters.map { Int($0[i]) } ?? 0
                let c = known > 0 ? known : TokenSlice.characterCount(bytes, Int(offsets[tok]) + skip, Int(offsets[tok + 1]))
                if c == 0 || c >= buckets { pairs.append(p); continue }
                characters[i] = UInt8(c)
                count[c] += 1
            }
            plainEnd = [Int32](repeating: 0, count: buckets)
            for c in 1..<buckets { plainEnd[c] = plainEnd[c - 1] + count[c] }
            var fill = [Int32](repeating: 0, count: buckets)
            for c in 1..<buckets { fill[c] = plainEnd[c - 1] }
            plainPairs = [UInt64](repeating: 0, count: Int(plainEnd[buckets - 1]))
            for (i, p) in allPairs.enumerated() where characters[i] != 0 {
                let c = Int(characters[i])
                plainPairs[Int(fill[c])] = p
                fill[c] += 1
            }
        }
        func tail(_ p: UInt64) -> UnsafeBufferPointer<UInt8> {
            let tok = Int(p >> 16), skip = Int(p & 0xFFFF)
            let start = Int(offsets[tok]) + skip
            return UnsafeBufferPointer(start: bytes + start, count: Int(offsets[tok + 1]) - start)
        }
        func less(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            let n = min(a.count, b.count)
            var i = 0
            while i < n {
                if a[i] != b[i] { return a[i] < b[i] }
                i += 1
            }
            return a.count < b.count
        }
        // Sorted on the tails' first 8 bytes as one big-endian word (zero-padded: a shorter tail sorts
        // first, as it should), comparing whole tails only on ties: at a block's end 100k+ tails are
        // sorted, and byte-wise comparisons through the token table were most of the entry's cost.
        var keyed: [(key: UInt64, pair: UInt64)] = []
        keyed.reserveCapacity(pairs.count)
        for p in pairs {
            let t = tail(p)
            var key: UInt64 = 0
            for i in 0..<8 { key = key << 8 | UInt64(i < t.count ? t[i] : 0) }
            keyed.append((key, p))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : less(tail($0.pair), tail($1.pair)) }
        let sorted = keyed.map(\.pair)
        var tails: [UInt64] = [], end: [Int32] = [], tokens: [UInt32] = []
        tokens.reserveCapacity(sorted.count)
        for p in sorted {
            if let last = tails.last, tail(last).elementsEqual(tail(p)) {
                end[end.count - 1] += 1
            } else {
                tails.append(p)
                end.append(Int32(tokens.count + 1))
            }
            tokens.append(UInt32(p >> 16))
        }
        let plain = tails.map { p -> UInt8 in
            let tok = Int(p >> 16), skip = Int(p & 0xFFFF)
            return UInt8(min(255, TokenSlice.characterCount(bytes, Int(offsets[tok]) + skip, Int(offsets[tok + 1]))))
        }
        self.init(tails: tails, end: end, tokens: tokens, plainCharacters: plain, plainEnd: plainEnd, plainPairs: plainPairs)
    }
}
