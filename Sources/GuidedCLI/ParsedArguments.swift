/// The options and positionals of one command line, checked against its `CommandSpec`, with typed readers
/// whose errors say which option was wrong and what it needs.
public struct ParsedArguments: Sendable, Equatable {
    /// Values of the options given, in order, keyed by name (`--count`); a flag maps to an empty list.
    public private(set) var values: [String: [String]] = [:]
    public private(set) var positionals: [String] = []

    init() {}

    mutating func add(_ name: String, _ value: String?) {
        values[name, default: []] += value.map { [$0] } ?? []
    }

    mutating func addPositional(_ value: String) { positionals.append(value) }

    public func has(_ name: String) -> Bool { values[name] != nil }

    /// The last value given for `name`, or nil.
    public func string(_ name: String) -> String? { values[name]?.last }

    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `name`, which must be given.
    public func required(_ name: String) throws(UsageError) -> String {
        guard let v = string(name) else { throw UsageError("\(name) is required") }
        return v
    }

    /// An integer of `range`, or nil when not given.
    public func int(_ name: String, in range: ClosedRange<Int> = 0...Int.max) throws(UsageError) -> Int? {
        guard let s = string(name) else { return nil }
        guard let n = Int(s), range.contains(n) else {
            throw .badValue(s, for: name, expected: Self.describe(range))
        }
        return n
    }

    public func uint64(_ name: String) throws(UsageError) -> UInt64? {
        guard let s = string(name) else { return nil }
        guard let n = UInt64(s) else { throw .badValue(s, for: name, expected: "an integer from 0 to \(UInt64.max)") }
        return n
    }

    /// A number greater than `above` (seconds, microseconds ...), or nil when not given.
    public func double(_ name: String, above: Double? = nil, atLeast: Double? = nil) throws(UsageError) -> Double? {
        guard let s = string(name) else { return nil }
        guard let x = Double(s), x.isFinite, above.map({ x > $0 }) ?? true, atLeast.map({ x >= $0 }) ?? true else {
            let bound = above.map { "a number above \(Self.short($0))" } ?? atLeast.map { "a number of at least \(Self.short($0))" } ?? "a number"
            throw .badValue(s, for: name, expected: bound)
        }
        return x
    }

    /// One of `choices` (given in the order the error lists them), or nil when not given.
    public func choice(_ name: String, of choices: [String]) throws(UsageError) -> String? {
        guard let s = string(name) else { return nil }
        guard choices.contains(s) else { throw .badValue(s, for: name, expected: "one of " + choices.joined(separator: ", ")) }
        return s
    }

    static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (1, Int.max): return "a positive integer"
        case (0, Int.max): return "an integer of at least 0"
        case (let lo, Int.max): return "an integer of at least \(lo)"
        case (let lo, let hi): return "an integer from \(lo) to \(hi)"
        }
    }

    private static func short(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(x)
    }
}
