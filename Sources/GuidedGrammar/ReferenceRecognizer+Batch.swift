extension ReferenceRecognizer {
    /// For each byte string, whether the input followed by it is still a viable prefix: the same
    /// answer as `canFeed` for every string, computed by a walk over the strings in lexicographic
    /// order that shares the work for common prefixes and stops a string at its first disallowed
    /// byte (a token-trie walk without the trie). This is how a brute-force token mask is built
    /// from a vocabulary's token bytes in tests.
    ///
    /// - Parameters:
    ///   - strings: the byte strings (e.g. token bytes); an empty string is always viable.
    ///   - order: the order to visit the strings in: any permutation of their indices gives the same
    ///     answers, and `lexicographicOrder(strings)` (the default, computed if nil) shares the most work;
    ///     pass it to reuse it across calls.
    /// - Complexity: one fork and feed per visited trie node, after an O(n log n) sort if `order` is nil.
    public func viable(_ strings: [[UInt8]], order: [Int]? = nil) -> [Bool] {
        let order = order ?? Self.lexicographicOrder(strings)
        precondition(order.count == strings.count, "order must be a permutation of the strings' indices")
        return walk(strings, order: order) { ok, _ in ok }.verdicts
    }

    /// Feeds every string in `order`, sharing the chart's sets for common prefixes, and records
    /// `verdict(whether every byte was read, the last set)` per string. The walk keeps one chart: the
    /// recognizer's sets, then one set per byte of the current string's viable prefix; sets for a shared
    /// prefix are kept, the others dropped before extending. With `maximumItems`, the walk stops once its
    /// sets took more Earley items than that, and `finished` is false (the verdicts past that point false).
    func walk(_ strings: [[UInt8]], order: [Int], maximumItems: Int = .max,
              verdict: (Bool, EarleySet) -> Bool) -> (verdicts: [Bool], finished: Bool) {
        var result = [Bool](repeating: false, count: strings.count)
        var chart = self.chart
        let base = chart.count
        var scratch = EarleyScratch()
        var kernel: [EarleyItem] = []
        var previous: [UInt8] = []
        for index in order {
            let s = strings[index]
            var common = 0
            while common < previous.count && common < s.count && previous[common] == s[common] { common += 1 }
            common = min(common, chart.count - base)
            chart.removeLast(chart.count - base - common)
            var ok = true
            while chart.count - base < s.count {
                let top = chart[chart.count - 1]
                let byte = s[chart.count - base]
                guard top.allowed.contains(byte) else { ok = false; break }
                kernel.removeAll(keepingCapacity: true)
                for scan in top.scans where bnf.terminals[Int(scan.terminal)].contains(byte) { kernel.append(scan.advanced) }
                let set = EarleySet.build(position: Int32(chart.count), kernel: kernel, chart: chart, bnf: bnf, scratch: &scratch)
                if scratch.processed > maximumItems { return (result, false) }
                chart.append(set)
            }
            result[index] = verdict(ok, chart[chart.count - 1])
            previous = s
        }
        return (result, true)
    }

    /// The indices of `strings` sorted so that their strings are in lexicographic byte order.
    public static func lexicographicOrder(_ strings: [[UInt8]]) -> [Int] {
        strings.indices.sorted { strings[$0].lexicographicallyPrecedes(strings[$1]) }
    }
}
