/// SplitMix64 (Steele, Lea & Flood, 2014, as popularised by Vigna): a tiny, fast, well-mixed 64-bit
/// PRNG with a single word of state. Seedable and fully specified, so the same seed gives the same
/// numbers on every platform, hence the same sampled tokens. Not cryptographic.
///
/// Step: `state &+= 0x9E3779B97F4A7C15`, then the output is `state` mixed by two xor-shift-multiply
/// rounds (`0xBF58476D1CE4E5B9`, `0x94D049BB133111EB`) and a final xor-shift.
public struct SplitMix64Generator: RandomNumberGenerator, Sendable, Equatable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) from the top 53 bits of `next()`.
    public mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
