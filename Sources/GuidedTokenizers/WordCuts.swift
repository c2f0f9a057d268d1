/// Cutting one long BPE word into parts that merge independently.
///
/// SentencePiece-style tokenizers (Llama-2, Mistral) merge the whole text as a single word, which costs a heap
/// over every character. When no merge can ever join the parts, encoding the parts one by one gives exactly
/// the same ids, through the fast path for short words.
///
/// The cut points are the positions of a marker character (the whitespace symbol `▁`) that follows another
/// character: `▁the▁▁cat` → `▁the`, `▁▁cat`. Runs of markers stay whole because vocabularies hold pieces such
/// as `▁▁▁▁` and `▁▁c` could be one too. Why the ids cannot change, given the conditions `enableWordCuts`
/// checks:
/// - Every merge forms a piece whose bytes are the two symbols' bytes joined (concatenation ranking looks the
///   joined bytes up or finds the same piece in its precomputed pair table; loaders resolve each merges-list
///   entry to the token of the joined bytes). With character
///   units and the marker being a piece, the symbol starting at a cut always begins with the whole marker, and
///   the symbol ending there ends with a character other than the marker. A merge across the cut would form a
///   piece holding a non-marker character followed by the marker, and no piece does.
/// - So the pair at a cut never merges, each side's candidate pairs depend on that side only, and the global
///   "lowest rank, leftmost on ties" choice performs each side's merges in the same order as encoding the side
///   alone. Byte fallback and unknown-run fusion stay inside each part, since a part's first symbol (the marker
///   or a longer piece) is known. A user-defined piece matched across a cut would also hold
///   "non-marker, marker", so user-defined matches are the same too.
extension BPEModel {
    /// Turns cutting before `marker` on when the conditions above hold for this model; returns whether it did.
    /// `marker` must be one UTF-8 character.
    mutating func enableWordCuts(before marker: [UInt8]) -> Bool {
        guard !marker.isEmpty, unit == .character, !wholeWordFirst, pieces.lookup(marker) >= 0,
              !Self.somePieceJoins(before: marker, pieces) else { return false }
        cutMarker = marker
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

    /// Encodes `p[0..<n]` as the parts cut before each `marker` that follows another character.
    func encodeInParts(_ p: UnsafePointer<UInt8>, _ n: Int, _ marker: [UInt8], into out: inout [Int], scratch: BPEScratch) {
        marker.withUnsafeBufferPointer { mk in
            let m = mk.count, first = mk[0], mp = mk.baseAddress!
            var partStart = 0
            var afterMarker = false
            var i = 0
            while i < n {
                // A marker's lead byte never occurs inside another character, so stepping by bytes is safe.
                if p[i] == first && i + m <= n && memcmpEqual(p + i, mp, m) {
                    if i > partStart && !afterMarker {
                        encodeWhole(p + partStart, i - partStart, into: &out, scratch: scratch)
                        partStart = i
                    }
                    afterMarker = true
                    i += m
                } else {
                    afterMarker = false
                    i += 1
                }
            }
            encodeWhole(p + partStart, n - partStart, into: &out, scratch: scratch)
        }
    }

    /// Test hook: merge every word whole, as if no cut were safe.
    mutating func disableWordCuts() { cutMarker = nil }
}
