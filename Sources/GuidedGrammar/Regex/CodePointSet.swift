/// A set of Unicode scalar values, kept as sorted, disjoint, non-adjacent closed ranges.
///
/// Regex classes (`[a-z]`, `\p{L}`, `.`) are sets of characters, not bytes; they become byte
/// automata only at the end (`utf8Expression`, or a caller's encoder for text inside JSON strings).
/// Surrogates (U+D800–U+DFFF) are never members: they are not scalars, so no valid UTF-8 text
/// contains them, and keeping them out makes `complement` exact for text.
///
/// Example: `CodePointSet(ranges: [0x61...0x7A]).union(CodePointSet(0x5F))` is `[_a-z]`.
public struct CodePointSet: Hashable, Sendable, CustomStringConvertible {
    /// The largest scalar value.
    public static let maxScalar: UInt32 = 0x10FFFF
    static let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF

    /// Sorted, disjoint, non-adjacent ranges, none touching the surrogate block.
    public private(set) var ranges: [ClosedRange<UInt32>]

    /// The empty set.
    public init() { ranges = [] }

    /// One scalar (a surrogate value gives the empty set).
    public init(_ scalar: UInt32) { self.init(ranges: [scalar...scalar]) }

    public init(_ scalar: Unicode.Scalar) { self.init(scalar.value) }

    /// Any ranges (overlapping, unsorted, reaching into surrogates or past U+10FFFF): normalized.
    public init(ranges input: some Sequence<ClosedRange<UInt32>>) {
        var clipped: [ClosedRange<UInt32>] = []
        for r in input {
            guard r.lowerBound <= Self.maxScalar else { continue }
            let hi = min(r.upperBound, Self.maxScalar)
            let lo = r.lowerBound
            // Remove the surrogate block.
            if hi < Self.surrogates.lowerBound || lo > Self.surrogates.upperBound {
                clipped.append(lo...hi)
            } else {
                if lo < Self.surrogates.lowerBound { clipped.append(lo...(Self.surrogates.lowerBound - 1)) }
                if hi > Self.surrogates.upperBound { clipped.append((Self.surrogates.upperBound + 1)...hi) }
            }
        }
        clipped.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        merged.reserveCapacity(clipped.count)
        for r in clipped {
            if let last = merged.last, r.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        // Ranges on both sides of the surrogate block stay separate (they are not adjacent scalars
        // in the UTF-8 sense either); that keeps the representation canonical.
        ranges = merged
    }

    /// Every scalar value: U+0000–U+D7FF and U+E000–U+10FFFF.
    public static let all = CodePointSet(ranges: [0...maxScalar])
    public static let empty = CodePointSet()

    public var isEmpty: Bool { ranges.isEmpty }

    /// The number of scalars in the set.
    public var count: Int { ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 } }

    /// Whether `scalar` is a member. - Complexity: O(log r) for r ranges.
    public func contains(_ scalar: UInt32) -> Bool {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound < scalar { lo = mid + 1 } else { hi = mid }
        }
        return lo < ranges.count && ranges[lo].contains(scalar)
    }

    public func contains(_ scalar: Unicode.Scalar) -> Bool { contains(scalar.value) }

    public func union(_ other: CodePointSet) -> CodePointSet {
        CodePointSet(ranges: ranges + other.ranges)
    }

    /// All scalars not in the set (surrogates stay excluded).
    public func complement() -> CodePointSet {
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            next = r.upperBound &+ 1
        }
        if next <= Self.maxScalar { out.append(next...Self.maxScalar) }
        return CodePointSet(ranges: out)
    }

    public func intersection(_ other: CodePointSet) -> CodePointSet {
        var out: [ClosedRange<UInt32>] = []
        var i = 0, j = 0
        while i < ranges.count && j < other.ranges.count {
            let a = ranges[i], b = other.ranges[j]
            let lo = max(a.lowerBound, b.lowerBound), hi = min(a.upperBound, b.upperBound)
            if lo <= hi { out.append(lo...hi) }
            if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
        }
        return CodePointSet(ranges: out)
    }

    public func subtracting(_ other: CodePointSet) -> CodePointSet {
        intersection(other.complement())
    }

    public var description: String {
        "[" + ranges.map { r in
            r.lowerBound == r.upperBound ? Self.hex(r.lowerBound) : "\(Self.hex(r.lowerBound))-\(Self.hex(r.upperBound))"
        }.joined(separator: " ") + "]"
    }

    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
