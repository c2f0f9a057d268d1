/// Cutting one long BPE word into parts that merge independently.
///
/// SentencePiece-style tokenizers (Llama-2, Mistral) merge the whole text as a single word, which costs a heap
/// over every character. When no merge can ever join the parts, encoding the parts one by one gives exactly
/// the same ids, through the fast path for short words and the word cache.
///
/// A cut between adjacent characters x and y is safe when no merge can produce a symbol holding both:
/// - Every merge forms a piece whose bytes are the two symbols' bytes joined (concatenation ranking looks the
///   joined bytes up or finds the same piece in its precomputed pair table; loaders resolve each merges-list
///   entry to the token of the joined bytes). Symbols start as characters (units are characters), so as long
///   as no merge has crossed the cut, the symbol left of it ends with x and the one right of it starts with y,
///   and a merge across it would form a piece holding x directly followed by y. If no piece does, by induction
///   no merge ever crosses the cut; each side's candidate pairs depend on that side only, and the global
///   "lowest rank, leftmost on ties" choice performs each side's merges in the same order as encoding the side
///   alone. A user-defined piece matched across the cut would also hold "x y", so those matches agree too.
/// - Unknown characters need care: with byte fallback before merging (Hugging Face) an unknown x becomes
///   `<0xNN>` symbols, whose joined bytes do not hold x; and runs of unknown characters fuse into one `unk`.
///   Hence the two rules below.
///
/// Rules (checked against every piece when the model is loaded, `enableWordCuts`):
/// 1. Before a marker character (the whitespace symbol `▁`) that follows another character, when the marker
///    is a piece and no piece holds another character followed by the marker: `▁the▁▁cat` → `▁the`, `▁▁cat`.
///    Runs of markers stay whole (`▁▁▁▁` is a piece). The marker being known keeps unknown runs and byte
///    fallback inside each part, and an unknown x's `<0xNN>` symbols end with '>', another character.
/// 2. Between two ASCII characters that are both pieces when no piece holds them adjacent, e.g. `":` in JSON
///    unless a piece contains it. Both being known sidesteps unknown characters altogether.
struct WordCutRules: Sendable {
    /// Rule 1's marker, or nil when rule 1 is not safe for this vocabulary.
    let marker: [UInt8]?
    /// Rule 2: bit `x << 7 | y` is set when a cut between ASCII characters x and y is safe.
    let asciiCuts: [UInt64]

    @inline(__always)
    static func allows(_ table: UnsafeBufferPointer<UInt64>, _ x: Int, _ y: UInt8) -> Bool {
        let bit = x << 7 | Int(y)
        return table[bit >> 6] >> UInt64(bit & 63) & 1 != 0
    }
}

extension BPEModel {
    /// Turns on the cut rules that are safe for this model (see above); returns whether any is.
    /// `marker` must be one UTF-8 character.
    mutating func enableWordCuts(before marker: [UInt8]) -> Bool {
        guard unit == .character, !wholeWordFirst else { return false }
        let markerSafe = !marker.isEmpty && pieces.lookup(marker) >= 0 && !Self.somePieceJoins(before: marker, pieces)
        let ascii = Self.asciiCutTable(pieces)
        guard markerSafe || ascii.contains(where: { $0 != 0 }) else { return false }
        cutRules = WordCutRules(marker: markerSafe ? marker : nil, asciiCuts: ascii)
        return true
    }

    /// Whether some piece (indexed or not) holds a character other than `marker` directly followed by `marker`.
    static func somePieceJoins(before marker: [UInt8], _ pieces: PieceTable) -> Bool {
        let s = pieces.storage, m = marker.count
        return marker.withUnsafeBufferPointer { mk in
            for id in 0..<s.count {
                let start = Int(s.offsets[id]), end = Int(s.offsets[id + 1])
                var k = start + 1
                while k + m <= end {
                    if memcmpEqual(s.bytes + k, mk.baseAddress!, m)
                        && (k - start < m || !memcmpEqual(s.bytes + k - m, mk.baseAddress!, m)) {
                        return true
                    }
                    k += 1
                }
            }
            return false
        }
    }

    /// Rule 2's table: both characters are one-byte pieces and no piece (indexed or not) holds them adjacent.
    static func asciiCutTable(_ pieces: PieceTable) -> [UInt64] {
        let s = pieces.storage
        var joined = [Bool](repeating: false, count: 128 * 128)
        for id in 0..<s.count {
            let start = Int(s.offsets[id]), end = Int(s.offsets[id + 1])
            var k = start
            while k + 1 < end {
                let x = s.bytes[k], y = s.bytes[k + 1]
                if x < 0x80 && y < 0x80 { joined[Int(x) << 7 | Int(y)] = true }
                k += 1
            }
        }
        var table = [UInt64](repeating: 0, count: 128 * 128 / 64)
        for x in 0..<128 where s.singleByte[x] >= 0 {
            for y in 0..<128 where s.singleByte[y] >= 0 && !joined[x << 7 | y] {
                let bit = x << 7 | y
                table[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }
        return table
    }

    /// Encodes `p[0..<n]` as the parts between the cuts that `rules` allow.
    func encodeInParts(_ p: UnsafePointer<UInt8>, _ n: Int, _ rules: WordCutRules, into out: inout [Int], scratch: BPEScratch) {
        rules.asciiCuts.withUnsafeBufferPointer { table in
            (rules.marker ?? []).withUnsafeBufferPointer { mk in
                let m = mk.count
                var partStart = 0
                var afterMarker = false
                var previousASCII = -1 // the character before i when it is ASCII
                var i = 0
                while i < n {
                    let b = p[i]
                    // A character's lead byte never occurs inside another character, so stepping by bytes is safe.
                    if m > 0 && b == mk[0] && i + m <= n && memcmpEqual(p + i, mk.baseAddress!, m) {
                        if i > partStart && !afterMarker {
                            encodeWhole(p + partStart, i - partStart, into: &out, scratch: scratch)
                            partStart = i
                        }
                        afterMarker = true
                        previousASCII = -1
                        i += m
                    } else if b < 0x80 {
                        if previousASCII >= 0 && i > partStart && WordCutRules.allows(table, previousASCII, b) {
                            encodeWhole(p + partStart, i - partStart, into: &out, scratch: scratch)
                            partStart = i
                        }
                        afterMarker = false
                        previousASCII = Int(b)
                        i += 1
                    } else {
                        afterMarker = false
                        previousASCII = -1
                        i += 1
                    }
                }
                encodeWhole(p + partStart, n - partStart, into: &out, scratch: scratch)
            }
        }
    }

    /// Test hook: merge every word whole, as if no cut were safe.
    mutating func disableWordCuts() { cutRules = nil }
}
