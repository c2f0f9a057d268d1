/// A set of byte values: 256 bits in four words. Character classes of grammars and regexes lower to
/// these, one per UTF-8 byte position. The mask engine's proofs also keep sets of byte classes in it
/// (classes number at most 256).
public struct ByteSet: Hashable, Sendable, BitwiseCopyable {
    @usableFromInline var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    public init() {}

    public init(_ bytes: some Sequence<UInt8>) {
        for b in bytes { insert(b) }
    }

    public init(range: ClosedRange<UInt8>) {
        for b in range { insert(b) }
    }

    public static let all: ByteSet = { var s = ByteSet(); s.w0 = ~0; s.w1 = ~0; s.w2 = ~0; s.w3 = ~0; return s }()

    @inlinable public func contains(_ b: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: return w0 & bit != 0
        case 1: return w1 & bit != 0
        case 2: return w2 & bit != 0
        default: return w3 & bit != 0
        }
    }

    @inlinable public mutating func insert(_ b: UInt8) {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    public mutating func insert(range: ClosedRange<UInt8>) { for b in range { insert(b) } }

    @inlinable public mutating func remove(_ b: UInt8) {
        let bit = ~(UInt64(1) << UInt64(b & 63))
        switch b >> 6 {
        case 0: w0 &= bit
        case 1: w1 &= bit
        case 2: w2 &= bit
        default: w3 &= bit
        }
    }

    /// Bits 64·i ..< 64·(i + 1) of the set (i in 0..<4), for loops over members.
    @inlinable public func word(_ i: Int) -> UInt64 {
        switch i { case 0: return w0; case 1: return w1; case 2: return w2; default: return w3 }
    }

    @inlinable public var isEmpty: Bool { (w0 | w1 | w2 | w3) == 0 }

    /// Exactly one member (without a population count, which the baseline x86-64 target lacks).
    @inlinable public var isSingle: Bool {
        let words = (w0 != 0 ? 1 : 0) + (w1 != 0 ? 1 : 0) + (w2 != 0 ? 1 : 0) + (w3 != 0 ? 1 : 0)
        let x = w0 | w1 | w2 | w3
        return words == 1 && x & (x &- 1) == 0
    }
    public var count: Int { w0.nonzeroBitCount + w1.nonzeroBitCount + w2.nonzeroBitCount + w3.nonzeroBitCount }

    @inlinable public func union(_ o: ByteSet) -> ByteSet {
        var r = ByteSet(); r.w0 = w0 | o.w0; r.w1 = w1 | o.w1; r.w2 = w2 | o.w2; r.w3 = w3 | o.w3; return r
    }
    @inlinable public func intersection(_ o: ByteSet) -> ByteSet {
        var r = ByteSet(); r.w0 = w0 & o.w0; r.w1 = w1 & o.w1; r.w2 = w2 & o.w2; r.w3 = w3 & o.w3; return r
    }
    @inlinable public func complement() -> ByteSet {
        var r = ByteSet(); r.w0 = ~w0; r.w1 = ~w1; r.w2 = ~w2; r.w3 = ~w3; return r
    }

    /// The members in increasing order.
    public var members: [UInt8] {
        // Bit by bit over the set words: probing all 256 values was a tenth of lowering a long
        // `pattern` intersection, which asks this once per automaton edge.
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for i in 0..<4 {
            var w = word(i)
            while w != 0 {
                out.append(UInt8(i * 64 + w.trailingZeroBitCount))
                w &= w - 1
            }
        }
        return out
    }

    /// The smallest member, or nil for the empty set.
    @inlinable public var lowest: UInt8? {
        for i in 0..<4 where word(i) != 0 { return UInt8(i * 64 + word(i).trailingZeroBitCount) }
        return nil
    }
}
