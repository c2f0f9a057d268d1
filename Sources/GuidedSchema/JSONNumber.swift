/// A JSON number kept as its literal text, with an exact decimal form for comparisons.
///
/// `Double` alone cannot say whether `12345678901234567891` equals `12345678901234567890`, or whether `0.3`
/// is a multiple of `0.1`; the decimal form (sign, significant digits, power of ten) can.
public struct JSONNumber: Sendable {
    /// The literal as written (for parsed numbers) or as Swift prints it (for constructed ones).
    public let text: String
    /// Sign of the value; false for zero.
    public let isNegative: Bool
    /// Significant decimal digits without leading or trailing zeros ("" for zero).
    public let digits: String
    /// Value = digits × 10^exponent.
    public let exponent: Int

    /// Creates a number from a JSON number literal; nil if `text` is not one.
    public init?(literal text: String) {
        guard let d = JSONNumber.decompose(text) else { return nil }
        self.text = text
        (isNegative, digits, exponent) = d
    }

    public init(_ value: Int) {
        self.init(literal: String(value))!
    }

    /// A finite double as its shortest round-trip text; non-finite values become 0 (JSON has no NaN).
    public init(_ value: Double) {
        guard value.isFinite else { self.init(literal: "0")!; return }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            self.init(literal: String(Int64(value)))!
        } else {
            self.init(literal: "\(value)")!
        }
    }

    public var doubleValue: Double { Double(text) ?? (isNegative ? -.infinity : .infinity) }

    /// True when the value is a whole number (`1.0` and `1e2` included), as JSON Schema's `integer` asks.
    public var isInteger: Bool { exponent >= 0 }

    public var isZero: Bool { digits.isEmpty }

    /// The value as an `Int` when it is a whole number that fits.
    public var intValue: Int? {
        guard isInteger else { return nil }
        if digits.isEmpty { return 0 }
        guard digits.count + exponent <= 19 else { return nil }
        var v = 0
        for c in digits.utf8 {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(c - 48))
            if o1 || o2 { return nil }
            v = a
        }
        for _ in 0..<exponent {
            let (m, o) = v.multipliedReportingOverflow(by: 10)
            if o { return nil }
            v = m
        }
        return isNegative ? -v : v
    }

    /// Splits a literal into sign, significant digits and exponent; nil if it is not JSON number syntax.
    static func decompose(_ text: String) -> (Bool, String, Int)? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        var intPart: [UInt8] = []
        while let c = bytes.first, c >= 48, c <= 57 { intPart.append(c); bytes = bytes.dropFirst() }
        guard !intPart.isEmpty, !(intPart.count > 1 && intPart[0] == 48) else { return nil }
        var fracPart: [UInt8] = []
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            while let c = bytes.first, c >= 48, c <= 57 { fracPart.append(c); bytes = bytes.dropFirst() }
            guard !fracPart.isEmpty else { return nil }
        }
        var exp = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var expNegative = false
            if let s = bytes.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") {
                expNegative = s == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            var sawDigit = false
            while let c = bytes.first, c >= 48, c <= 57 {
                sawDigit = true
                // Saturate: exponents this large make the value zero or infinite for any practical purpose.
                if exp < 100_000_000 { exp = exp * 10 + Int(c - 48) }
                bytes = bytes.dropFirst()
            }
            guard sawDigit else { return nil }
            if expNegative { exp = -exp }
        }
        guard bytes.isEmpty else { return nil }
        var all = intPart + fracPart
        exp -= fracPart.count
        while let f = all.first, f == 48 { all.removeFirst() }
        while let l = all.last, l == 48 { all.removeLast(); exp += 1 }
        if all.isEmpty { return (false, "", 0) }
        return (negative, String(decoding: all, as: UTF8.self), exp)
    }
}

extension JSONNumber: Equatable, Hashable, Comparable {
    public static func == (a: JSONNumber, b: JSONNumber) -> Bool {
        a.isNegative == b.isNegative && a.digits == b.digits && a.exponent == b.exponent
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isNegative)
        hasher.combine(digits)
        hasher.combine(exponent)
    }

    /// Exact comparison of the decimal values.
    public static func < (a: JSONNumber, b: JSONNumber) -> Bool {
        if a.isNegative != b.isNegative { return a.isNegative }
        let magnitudeLess = JSONNumber.magnitudeLess(a, b)
        if a.isNegative { return JSONNumber.magnitudeLess(b, a) }
        return magnitudeLess
    }

    static func magnitudeLess(_ a: JSONNumber, _ b: JSONNumber) -> Bool {
        if a.isZero { return !b.isZero }
        if b.isZero { return false }
        // Compare orders of magnitude first: position of the leading digit.
        let ma = a.digits.count + a.exponent
        let mb = b.digits.count + b.exponent
        if ma != mb { return ma < mb }
        // Same magnitude: compare digit strings padded to equal length.
        let da = Array(a.digits.utf8), db = Array(b.digits.utf8)
        for i in 0..<max(da.count, db.count) {
            let x = i < da.count ? da[i] : 48
            let y = i < db.count ? db[i] : 48
            if x != y { return x < y }
        }
        return false
    }
}

extension JSONNumber: CustomStringConvertible {
    public var description: String { text }
}
