/// The items an array of distinct strings from a finite language may hold
/// (`GrammarRule.distinctValues`): their texts sorted by bytes, and the array's `minItems`. The matcher
/// refuses what would leave too few unwritten values (`DistinctItems`): a string no unwritten value
/// begins with, a separator when no value is left, an item after which `minItems` cannot be reached.
final class DistinctValues: Sendable {
    let values: [[UInt8]]
    let minimum: Int

    init(values: [[UInt8]], minimum: Int) {
        self.values = values
        self.minimum = minimum
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
