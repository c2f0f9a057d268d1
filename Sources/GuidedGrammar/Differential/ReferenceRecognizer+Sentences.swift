extension ReferenceRecognizer {
    /// For each byte string, whether the input followed by it is a complete sentence: `accepts` for
    /// every string, with the work for common prefixes shared as in `viable(_:order:)` (strings and
    /// their near misses share long prefixes, which is how the differential tests feed them).
    public func acceptsEach(_ strings: [[UInt8]]) -> [Bool] {
        let order = Self.lexicographicOrder(strings)
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
                chart.append(EarleySet.build(position: Int32(chart.count), kernel: kernel, chart: chart, bnf: bnf, scratch: &scratch))
            }
            result[index] = ok && chart[chart.count - 1].accepting
            previous = s
        }
        return result
    }
}
