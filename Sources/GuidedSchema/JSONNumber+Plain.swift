extension JSONNumber {
    /// The value's magnitude written without an exponent: `integer` has no leading zeros ("0" when the
    /// value is below one), `fraction` no trailing zeros ("" for whole numbers).
    public struct PlainDecimal: Sendable, Equatable {
        public var integer: String
        public var fraction: String

        public init(integer: String, fraction: String) {
            self.integer = integer
            self.fraction = fraction
        }
    }

    /// How many digits the plain spelling of the magnitude has before and after the point, computed from
    /// the digit count and the exponent alone, so a caller can refuse `1e999999999` before building it.
    public var plainDigitCounts: (integer: Int, fraction: Int) {
        if isZero { return (1, 0) }
        let n = digits.count
        if exponent >= 0 { return (n + exponent, 0) }
        // A negative exponent's magnitude is below the digit count plus the saturation bound of
        // `decompose` (about 10^9), so no sum here overflows.
        if -exponent >= n { return (1, -exponent) }
        return (n + exponent, -exponent)
    }

    /// The plain spelling of the magnitude, or nil when either part would have more than `maxDigits`
    /// digits. The length is checked before anything is allocated: schemas reach here with literals such
    /// as `1e999999999`.
    public func plainDecimal(maxDigits: Int) -> PlainDecimal? {
        let counts = plainDigitCounts
        guard counts.integer <= maxDigits, counts.fraction <= maxDigits else { return nil }
        if isZero { return PlainDecimal(integer: "0", fraction: "") }
        let e = exponent
        if e >= 0 { return PlainDecimal(integer: digits + String(repeating: "0", count: e), fraction: "") }
        if -e >= digits.count {
            return PlainDecimal(integer: "0", fraction: String(repeating: "0", count: -e - digits.count) + digits)
        }
        return PlainDecimal(integer: String(digits.prefix(digits.count + e)), fraction: String(digits.suffix(-e)))
    }
}
