import GuidedGrammar

/// The items an array of distinct strings from a language with an end may hold
/// (`GrammarRule.distinctValues` or `.distinctLanguage`), and the array's `minItems`. The matcher refuses
/// what would leave too few unwritten values (`DistinctItems.feasible`): a string whose completions are
/// all written, a separator when no value is left, an item after which `minItems` cannot be reached.
///
/// A list of strings (sorted by bytes: the values that begin with a text are a range), or, for a language
/// too large to list, its content automaton with each state's number of completions (saturated at
/// `Int32.max`: more than any array holds).
final class DistinctValues: Sendable {
    let values: [[UInt8]]
    let minimum: Int
    /// How many values there are (saturated).
    let total: Int
    /// The counted form: byte classes, transitions (-1: none) and completions per state.
    let classOf: [UInt8]
    let classCount: Int
    let table: [Int32]
    let completions: [Int]
    var isCounted: Bool { !completions.isEmpty }

    init(values: [[UInt8]], minimum: Int) {
        self.values = values
        self.minimum = minimum
        total = values.count
        classOf = []; classCount = 0; table = []; completions = []
    }

    init(language: ByteDFA, minimum: Int) {
        values = []
        self.minimum = minimum
        classOf = language.classOf
        classCount = language.classCount
        table = language.table
        completions = language.completionCounts(cap: UInt64(Int32.max)).map { Int($0) }
        total = completions.first ?? 0
    }

    /// The number of values that begin with `bytes[start ..< end]` (saturated), by the counted form.
    func completions(of bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var q = 0
        for k in start..<end {
            q = Int(table[q * classCount + Int(classOf[Int(bytes[k])])])
            if q < 0 { return 0 }
        }
        return completions[q]
    }

    /// The range of `values` that begin with `bytes[start ..< end]` (sorted, so they are contiguous).
    func range(beginningWith bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        // First value not below the prefix, then first value past every extension of it.
        func below(_ v: [UInt8]) -> Bool {   // v < prefix, comparing v's first bytes
            var k = 0
            while k < end - start {
                if k == v.count { return true }
                if v[k] != bytes[start + k] { return v[k] < bytes[start + k] }
                k += 1
            }
            return false
        }
        func extends(_ v: [UInt8]) -> Bool {
            guard v.count >= end - start else { return false }
            for k in 0..<(end - start) where v[k] != bytes[start + k] { return false }
            return true
        }
        var lo = 0, hi = values.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if below(values[mid]) { lo = mid + 1 } else { hi = mid }
        }
        var upper = lo
        var top = values.count
        while upper < top {
            let mid = (upper + top) >> 1
            if extends(values[mid]) { upper = mid + 1 } else { top = mid }
        }
        return lo..<upper
    }
}
