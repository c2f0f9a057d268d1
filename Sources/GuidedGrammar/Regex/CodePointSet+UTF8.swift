/// Exact lowering of scalar sets to UTF-8 byte automata.
///
/// A scalar range is split (the classic construction, as in RE2 and Rust's `regex-syntax`) into
/// ranges whose UTF-8 encodings all have the same length and differ only in a suffix of "full"
/// continuation bytes; each such range is one sequence of byte ranges. The result accepts exactly
/// the UTF-8 encodings of the set's members: no overlong forms, no surrogates, nothing past U+10FFFF.
extension CodePointSet {
    /// The set as byte-range sequences, in increasing scalar order; each sequence is one UTF-8 form.
    public var utf8Sequences: [[ClosedRange<UInt8>]] {
        var out: [[ClosedRange<UInt8>]] = []
        for r in ranges { Self.splitUTF8(r.lowerBound, r.upperBound, into: &out) }
        return out
    }

    /// A `GrammarExpr` matching exactly the UTF-8 encoding of one member, with common leading
    /// byte ranges factored and equal tails merged, so large classes (`\p{L}`) stay compact.
    public var utf8Expression: GrammarExpr {
        if isEmpty { return .nothing }
        if ranges.count == 1, ranges[0].lowerBound == ranges[0].upperBound,
           let s = Unicode.Scalar(ranges[0].lowerBound) {
            return .bytes(Array(String(Character(s)).utf8))
        }
        return Self.factor(utf8Sequences[...], depth: 0)
    }

    /// Builds a prefix-factored expression from sequences sharing their first `depth` ranges.
    private static func factor(_ seqs: ArraySlice<[ClosedRange<UInt8>]>, depth: Int) -> GrammarExpr {
        // Group by the range at `depth`, keeping first-appearance order.
        var order: [ClosedRange<UInt8>] = []
        var groups: [ClosedRange<UInt8>: [[ClosedRange<UInt8>]]] = [:]
        var endsHere = false
        for s in seqs {
            guard depth < s.count else { endsHere = true; continue }
            let key = s[depth]
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(s)
        }
        // Tails that are equal merge their leading byte sets.
        var tailOrder: [GrammarExpr] = []
        var heads: [GrammarExpr: ByteSet] = [:]
        for key in order {
            let tail = factor(groups[key]![...], depth: depth + 1)
            if heads[tail] == nil { tailOrder.append(tail) }
            heads[tail, default: ByteSet()].insert(range: key)
        }
        var alternatives: [GrammarExpr] = endsHere ? [.empty] : []
        for tail in tailOrder {
            let head = GrammarExpr.byteSet(heads[tail]!)
            alternatives.append(tail == .empty ? head : .sequence([head] + Self.flatSequence(tail)))
        }
        return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    private static func flatSequence(_ e: GrammarExpr) -> [GrammarExpr] {
        if case .sequence(let parts) = e { return parts }
        return [e]
    }

    private static func splitUTF8(_ lo: UInt32, _ hi: UInt32, into out: inout [[ClosedRange<UInt8>]]) {
        // 1. Same encoded length.
        for bound: UInt32 in [0x7F, 0x7FF, 0xFFFF] where lo <= bound && hi > bound {
            splitUTF8(lo, bound, into: &out)
            splitUTF8(bound + 1, hi, into: &out)
            return
        }
        if hi <= 0x7F {
            out.append([UInt8(lo)...UInt8(hi)])
            return
        }
        // 2. Only a suffix of full continuation ranges may differ.
        let n = encodedLength(lo)
        for i in 1..<n {
            let m: UInt32 = (1 << (6 * UInt32(i))) - 1
            if lo & ~m != hi & ~m {
                if lo & m != 0 {
                    splitUTF8(lo, lo | m, into: &out)
                    splitUTF8((lo | m) + 1, hi, into: &out)
                    return
                }
                if hi & m != m {
                    splitUTF8(lo, (hi & ~m) - 1, into: &out)
                    splitUTF8(hi & ~m, hi, into: &out)
                    return
                }
            }
        }
        let a = encode(lo), b = encode(hi)
        out.append((0..<a.count).map { a[$0]...b[$0] })
    }

    static func encodedLength(_ v: UInt32) -> Int {
        v <= 0x7F ? 1 : v <= 0x7FF ? 2 : v <= 0xFFFF ? 3 : 4
    }

    /// UTF-8 bytes of a value (valid for any value ≤ U+10FFFF, surrogates included: used only for range ends).
    static func encode(_ v: UInt32) -> [UInt8] {
        switch encodedLength(v) {
        case 1: return [UInt8(v)]
        case 2: return [UInt8(0xC0 | (v >> 6)), UInt8(0x80 | (v & 0x3F))]
        case 3: return [UInt8(0xE0 | (v >> 12)), UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
        default:
            return [UInt8(0xF0 | (v >> 18)), UInt8(0x80 | ((v >> 12) & 0x3F)),
                    UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
        }
    }
}
