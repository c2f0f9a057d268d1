/// Where a byte path stands in the UTF-8 encoding: between characters, inside one (the lead byte and
/// continuation bytes read so far, each position as the set of bytes it may be), or past a byte no
/// UTF-8 text has there.
///
/// A position inside a character is a product of byte sets, not one byte string: the bytes of a
/// `GrammarExpr.byteSet` are read as one step, so a path's pending part is "any byte of S1, then any of
/// S2". That is exact because the choice of byte inside a set is independent of everything else on
/// the path; paths that end in different pending states are kept apart (`UTF8Lifting` makes one rule
/// per rule, entry state and exit state).
enum UTF8Pending: Hashable, Sendable {
    case boundary
    /// `prefix.count` bytes of a character `length` bytes long (1 ≤ prefix.count < length ≤ 4).
    case partial(length: Int, prefix: [ByteSet])
    /// A byte no valid UTF-8 text has in this place; every path through it is refused if it can end.
    case invalid

    static let continuation = ByteSet(range: 0x80...0xBF)
    static let ascii = ByteSet(range: 0x00...0x7F)
    static let lead2 = ByteSet(range: 0xC2...0xDF)
    static let lead3 = ByteSet(range: 0xE0...0xEF)
    static let lead4 = ByteSet(range: 0xF0...0xF4)

    /// What reading one byte of `set` does from this state: the characters completed (with the state
    /// after them, `.boundary`) and the states still inside a character, and whether some byte of the
    /// set makes the text invalid.
    func reading(_ set: ByteSet) -> (completed: CodePointSet, pending: [UTF8Pending], invalid: Bool) {
        switch self {
        case .invalid:
            return (CodePointSet(), [.invalid], false)
        case .boundary:
            var completed = CodePointSet()
            let a = set.intersection(Self.ascii)
            if !a.isEmpty { completed = CodePointSet(ranges: UTF8Decoding.ranges(of: a).map { UInt32($0.lowerBound)...UInt32($0.upperBound) }) }
            var pending: [UTF8Pending] = []
            for (length, leads) in [(2, Self.lead2), (3, Self.lead3), (4, Self.lead4)] {
                let l = set.intersection(leads)
                if !l.isEmpty { pending.append(.partial(length: length, prefix: [l])) }
            }
            let valid = Self.ascii.union(Self.lead2).union(Self.lead3).union(Self.lead4)
            return (completed, pending, !set.intersection(valid.complement()).isEmpty)
        case .partial(let length, let prefix):
            let c = set.intersection(Self.continuation)
            let invalidByte = !set.intersection(Self.continuation.complement()).isEmpty
            if c.isEmpty { return (CodePointSet(), [], invalidByte) }
            if prefix.count + 1 < length {
                return (CodePointSet(), [.partial(length: length, prefix: prefix + [c])], invalidByte)
            }
            let decoded = UTF8Decoding.decode(prefix + [c])
            return (decoded.valid, [], invalidByte || decoded.invalid)
        }
    }
}

/// Decoding a product of byte sets (a lead byte set, then continuation sets) into code points.
enum UTF8Decoding {
    /// The byte set as maximal ranges.
    static func ranges(of set: ByteSet) -> [ClosedRange<UInt8>] {
        var out: [ClosedRange<UInt8>] = []
        var start: Int? = nil
        for b in 0...256 {
            let member = b < 256 && set.contains(UInt8(b))
            if member, start == nil { start = b }
            if !member, let s = start { out.append(UInt8(s)...UInt8(b - 1)); start = nil }
        }
        return out
    }

    /// The scalars whose encodings are in `sets[0] × sets[1] × …` (a lead set then continuation sets),
    /// and whether the product also holds sequences that are not valid UTF-8 (overlong forms,
    /// surrogates, values past U+10FFFF).
    ///
    /// Walks byte ranges, not bytes: once every remaining position is the full continuation range
    /// `80…BF`, a range of bytes here is one range of values (the common case, `[E1-EC][80-BF][80-BF]`,
    /// is 12 values, not 49,152).
    static func decode(_ sets: [ByteSet]) -> (valid: CodePointSet, invalid: Bool) {
        let length = sets.count
        let leadMask: UInt32 = length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        let rangeSets = sets.map(ranges(of:))
        var fullFrom = length
        while fullFrom > 1 && sets[fullFrom - 1] == UTF8Pending.continuation { fullFrom -= 1 }
        var values: [ClosedRange<UInt32>] = []
        func walk(_ position: Int, _ value: UInt32) {
            let mask: UInt32 = position == 0 ? leadMask : 0x3F
            let rest = UInt32(6 * (length - 1 - position))
            for r in rangeSets[position] {
                if position + 1 >= fullFrom {
                    let lo = ((value << 6) | (UInt32(r.lowerBound) & mask)) << rest
                    let hi = (((value << 6) | (UInt32(r.upperBound) & mask)) << rest) | ((1 << rest) - 1)
                    values.append(lo...hi)
                } else {
                    for b in r { walk(position + 1, (value << 6) | (UInt32(b) & mask)) }
                }
            }
        }
        walk(0, 0)
        var valid: [ClosedRange<UInt32>] = []
        var invalid = false
        for v in values {
            // Overlong forms below the length's minimum, surrogates, values past U+10FFFF.
            var lo = v.lowerBound
            let hi = min(v.upperBound, CodePointSet.maxScalar)
            if v.upperBound > CodePointSet.maxScalar { invalid = true }
            if lo < minimum { invalid = true; lo = minimum }
            guard lo <= hi else { continue }
            if lo <= CodePointSet.surrogates.upperBound && hi >= CodePointSet.surrogates.lowerBound { invalid = true }
            valid.append(lo...hi)
        }
        // CodePointSet drops the surrogate block.
        return (CodePointSet(ranges: valid), invalid)
    }
}
