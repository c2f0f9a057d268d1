extension SchemaEvaluation {
    /// `multipleOf`, `maximum`, `minimum`, `exclusiveMaximum`, `exclusiveMinimum`, compared exactly on the
    /// decimal literals.
    func evaluateNumber(_ x: JSONNumber, _ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        if let m = c["multipleOf"]?.numberValue, !m.isZero, !m.isNegative, !SchemaEvaluation.isMultiple(x, of: m) {
            c.fail("multipleOf", "\(x.text) is not a multiple of \(m.text)", &errors)
        }
        let draft4 = c.draft == .draft4
        if let max = c["maximum"]?.numberValue {
            let exclusive = draft4 && c["exclusiveMaximum"]?.boolValue == true
            if exclusive ? !(x < max) : max < x {
                c.fail("maximum", "\(x.text) is greater than \(exclusive ? "or equal to " : "")the maximum \(max.text)", &errors)
            }
        }
        if let min = c["minimum"]?.numberValue {
            let exclusive = draft4 && c["exclusiveMinimum"]?.boolValue == true
            if exclusive ? !(min < x) : x < min {
                c.fail("minimum", "\(x.text) is less than \(exclusive ? "or equal to " : "")the minimum \(min.text)", &errors)
            }
        }
        if !draft4, let max = c["exclusiveMaximum"]?.numberValue, !(x < max) {
            c.fail("exclusiveMaximum", "\(x.text) is not less than the exclusive maximum \(max.text)", &errors)
        }
        if !draft4, let min = c["exclusiveMinimum"]?.numberValue, !(min < x) {
            c.fail("exclusiveMinimum", "\(x.text) is not greater than the exclusive minimum \(min.text)", &errors)
        }
    }

    /// Exact decimal divisibility: x = dx·10^ex, m = dm·10^em; x/m is whole iff dx·10^(ex-e) is divisible
    /// by dm·10^(em-e) with e = min(ex, em). Falls back to binary floating point only for divisors whose
    /// digits do not fit in 64 bits or for exponent gaps too large to expand.
    static func isMultiple(_ x: JSONNumber, of m: JSONNumber) -> Bool {
        if x.isZero { return true }
        let e = min(x.exponent, m.exponent)
        let xShift = x.exponent - e, mShift = m.exponent - e
        let divisorDigits = m.digits.count + mShift
        guard divisorDigits <= 18, xShift <= 100_000 else {
            let q = x.doubleValue / m.doubleValue
            return q.isFinite && q == q.rounded()
        }
        var divisor: UInt64 = 0
        for c in m.digits.utf8 { divisor = divisor * 10 + UInt64(c - 48) }
        for _ in 0..<mShift { divisor *= 10 }
        var remainder: UInt64 = 0
        for c in x.digits.utf8 { remainder = (remainder * 10 + UInt64(c - 48)) % divisor }
        for _ in 0..<xShift {
            remainder = (remainder * 10) % divisor
            if remainder == 0 { break }
        }
        return remainder == 0
    }
}
