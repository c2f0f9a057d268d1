/// A set of Unicode scalar values as sorted, disjoint, non-adjacent closed ranges, with the lowering
/// of such a set to alternatives of UTF-8 byte-range sequences.
///
/// Internal to the GBNF front end for now; the regex front end has its own code-point set, and the
/// two should be unified once both are on `main`.
struct GBNFCodePointRanges: Equatable {
    static let maxScalar: UInt32 = 0x10FFFF
    static let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF

    private(set) var ranges: [ClosedRange<UInt32>] = []

    init() {}

    init(_ ranges: [ClosedRange<UInt32>]) {
        for r in ranges { insert(r) }
    }

    /// Every Unicode scalar value (all code points except surrogates).
    static let allScalars = GBNFCodePointRanges([0...0xD7FF, 0xE000...maxScalar])

    mutating func insert(_ r: ClosedRange<UInt32>) {
        var lo = r.lowerBound, hi = r.upperBound
        var kept: [ClosedRange<UInt32>] = []
        for x in ranges {
            // Merge overlapping or adjacent ranges.
            if x.upperBound &+ 1 < lo || hi &+ 1 < x.lowerBound {
                kept.append(x)
            } else {
                lo = min(lo, x.lowerBound)
                hi = max(hi, x.upperBound)
            }
        }
        kept.append(lo...hi)
        kept.sort { $0.lowerBound < $1.lowerBound }
        ranges = kept
    }

    /// The scalar values not in this set (surrogates are never members).
    func complement() -> GBNFCodePointRanges {
        var result = GBNFCodePointRanges()
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { result.insert(next...(r.lowerBound - 1)) }
            next = r.upperBound + 1
        }
        if next <= Self.maxScalar { result.insert(next...Self.maxScalar) }
        return result.removingSurrogates()
    }

    func removingSurrogates() -> GBNFCodePointRanges {
        var result = GBNFCodePointRanges()
        for r in ranges {
            if r.lowerBound < Self.surrogates.lowerBound {
                result.insert(r.lowerBound...min(r.upperBound, Self.surrogates.lowerBound - 1))
            }
            if r.upperBound > Self.surrogates.upperBound {
                result.insert(max(r.lowerBound, Self.surrogates.upperBound + 1)...r.upperBound)
            }
        }
        return result
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// The UTF-8 encodings of exactly the members, as a grammar expression: one byte set for the
    /// ASCII/one-byte part and a sequence of byte sets for each multi-byte block.
    func utf8Expression() -> GrammarExpr {
        var sequences: [[ClosedRange<UInt8>]] = []
        for r in removingSurrogates().ranges {
            // Split at the boundaries of the UTF-8 encoded lengths, then split each piece further.
            var lo = r.lowerBound
            for boundary: UInt32 in [0x7F, 0x7FF, 0xFFFF, Self.maxScalar] where lo <= r.upperBound && lo <= boundary {
                let hi = min(r.upperBound, boundary)
                Self.splitSameLength(lo, hi, into: &sequences)
                lo = hi + 1
            }
        }
        var single = ByteSet()
        var alternatives: [GrammarExpr] = []
        for s in sequences {
            if s.count == 1 {
                single.insert(range: s[0])
            } else {
                alternatives.append(.sequence(s.map { .byteSet(ByteSet(range: $0)) }))
            }
        }
        if !single.isEmpty { alternatives.insert(.byteSet(single), at: 0) }
        switch alternatives.count {
        case 0: return .nothing
        case 1: return alternatives[0]
        default: return .choice(alternatives)
        }
    }

    /// `lo...hi` (same encoded length) as sequences whose every position is a plain byte range: split
    /// until, for each continuation position, either the range lies inside one block of that position's
    /// 6 bits or covers whole blocks.
    private static func splitSameLength(_ lo: UInt32, _ hi: UInt32, into out: inout [[ClosedRange<UInt8>]]) {
        let length = utf8Length(lo)
        for i in 1..<max(length, 1) {
            let mask: UInt32 = (1 << (6 * UInt32(i))) - 1
            if lo & ~mask != hi & ~mask {
                if lo & mask != 0 {
                    splitSameLength(lo, lo | mask, into: &out)
                    splitSameLength((lo | mask) + 1, hi, into: &out)
                    return
                }
                if hi & mask != mask {
                    splitSameLength(lo, (hi & ~mask) - 1, into: &out)
                    splitSameLength(hi & ~mask, hi, into: &out)
                    return
                }
            }
        }
        let a = encode(lo), b = encode(hi)
        out.append(zip(a, b).map { $0...$1 })
    }

    static func utf8Length(_ c: UInt32) -> Int {
        c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4
    }

    static func encode(_ c: UInt32) -> [UInt8] {
        switch utf8Length(c) {
        case 1: return [UInt8(c)]
        case 2: return [UInt8(0xC0 | (c >> 6)), UInt8(0x80 | (c & 0x3F))]
        case 3: return [UInt8(0xE0 | (c >> 12)), UInt8(0x80 | ((c >> 6) & 0x3F)), UInt8(0x80 | (c & 0x3F))]
        default:
            return [UInt8(0xF0 | (c >> 18)), UInt8(0x80 | ((c >> 12) & 0x3F)),
                    UInt8(0x80 | ((c >> 6) & 0x3F)), UInt8(0x80 | (c & 0x3F))]
        }
    }
}
