extension ByteDFA {
    /// Strings `xy` with `x` accepted by `self` and `y` by `other` (subset construction over a state of
    /// `self` and the set of `other`'s states begun so far). The result is minimized.
    public func concatenated(with other: ByteDFA, limits: AutomatonLimits = .default) throws(AutomatonError) -> ByteDFA {
        let (classOf, classPairs) = pairedClasses(with: other)
        let classCount = classPairs.count
        // A state: `self`'s state (-1: left) followed by the sorted states of `other` under way.
        var ids: [[Int32]: Int32] = [:]
        var states: [[Int32]] = []
        var table: [Int32] = []
        var accepting: [Bool] = []
        let budget = CompileBudget.current
        func add(_ a: Int32, _ bs: [Int32]) throws(AutomatonError) -> Int32 {
            var set = bs
            // Where `self` accepts, `other` may begin.
            if a >= 0 && self.accepting[Int(a)] && !set.contains(0) { set.append(0) }
            set.sort()
            let key = [a] + set
            if let id = ids[key] { return id }
            guard states.count < limits.maxDFAStates else { throw .tooManyStates(limit: limits.maxDFAStates) }
            if states.count & 255 == 255, let spent = budget?.exceeded { throw .budgetExceeded(spent) }
            let id = Int32(states.count)
            ids[key] = id
            states.append(key)
            accepting.append(set.contains { other.accepting[Int($0)] })
            table.append(contentsOf: repeatElement(-1, count: classCount))
            return id
        }
        _ = try add(0, [])
        var i = 0
        var next: [Int32] = []
        while i < states.count {
            let key = states[i]
            let a = key[0]
            for c in 0..<classCount {
                let (ca, cb) = classPairs[c]
                let ta: Int32 = a < 0 ? -1 : self.table[Int(a) * self.classCount + ca]
                next.removeAll(keepingCapacity: true)
                for b in key.dropFirst() {
                    let t = other.table[Int(b) * other.classCount + cb]
                    if t >= 0 && !next.contains(t) { next.append(t) }
                }
                if ta < 0 && next.isEmpty { continue }
                table[i * classCount + c] = try add(ta, next)
            }
            i += 1
        }
        return ByteDFA(classOf: classOf, classCount: classCount, table: table, accepting: accepting).minimized()
    }
}
