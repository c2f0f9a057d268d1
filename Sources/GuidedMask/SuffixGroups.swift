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

    static let empty = SuffixGroups(tails: [], end: [], tokens: [], plainCharacters: [])

    var isEmpty: Bool { tails.isEmpty }
    var byteCount: Int { tails.count * 9 + end.count * 4 + tokens.count * 4 }

    private init(tails: [UInt64], end: [Int32], tokens: [UInt32], plainCharacters: [UInt8]) {
        self.tails = tails; self.end = end; self.tokens = tokens; self.plainCharacters = plainCharacters
    }

    /// Groups `pairs` (`token << 16 | offset`, as the cache walk collects them) by tail bytes.
    init(pairs: [UInt64], bytes: UnsafeMutablePointer<UInt8>, offsets: UnsafeMutablePointer<UInt32>) {
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
        self.init(tails: tails, end: end, tokens: tokens, plainCharacters: plain)
    }
}
