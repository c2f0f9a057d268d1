extension ByteDFA {
    /// Whether every state that the start reaches and that can still reach acceptance has infinitely
    /// many accepted continuations: from any prefix of the language, some word is outside every finite
    /// set of words. (An array of distinct strings from such a language can always take one more item,
    /// and an item begun can always be finished differently from every earlier one.)
    ///
    /// It holds exactly when every such live state has a live successor: following live successors
    /// from any live state never stops, so it enters a cycle of live states, and each turn of that
    /// cycle continues to another accepted word. A live state without one has a single continuation,
    /// the empty one (a `maxLength` reached, the end of a format).
    public var continuesInfinitelyFromEveryPrefix: Bool {
        let n = stateCount
        guard n > 0 else { return false }
        var reached = [Bool](repeating: false, count: n)
        reached[0] = true
        var stack: [Int] = [0]
        var predecessors = [[Int32]](repeating: [], count: n)
        while let s = stack.popLast() {
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                guard t >= 0 else { continue }
                predecessors[t].append(Int32(s))
                if !reached[t] { reached[t] = true; stack.append(t) }
            }
        }
        // Live: reached and able to reach an accepting state (only reached states have predecessors).
        var live = [Bool](repeating: false, count: n)
        for s in 0..<n where reached[s] && accepting[s] { live[s] = true; stack.append(s) }
        while let s = stack.popLast() {
            for p in predecessors[s] where !live[Int(p)] { live[Int(p)] = true; stack.append(Int(p)) }
        }
        guard live[0] else { return false }
        for s in 0..<n where live[s] {
            var continues = false
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                if t >= 0 && live[t] { continues = true; break }
            }
            if !continues { return false }
        }
        return true
    }
}

extension ByteDFA {
    /// Every word of the language, sorted by bytes, when it is finite and holds at most `limit` words;
    /// nil otherwise (a cycle among the live states, or more words).
    public func words(limit: Int) -> [[UInt8]]? {
        let n = stateCount
        guard n > 0 else { return [] }
        // Live states: those that reach acceptance (found backwards from the accepting ones).
        var predecessors = [[Int32]](repeating: [], count: n)
        for s in 0..<n {
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                if t >= 0 { predecessors[t].append(Int32(s)) }
            }
        }
        var live = [Bool](repeating: false, count: n)
        var stack: [Int] = []
        for s in 0..<n where accepting[s] { live[s] = true; stack.append(s) }
        while let s = stack.popLast() {
            for p in predecessors[s] where !live[Int(p)] { live[Int(p)] = true; stack.append(Int(p)) }
        }
        guard live[0] else { return [] }
        var classBytes = [[UInt8]](repeating: [], count: classCount)
        for b in 0..<256 { classBytes[Int(classOf[b])].append(UInt8(b)) }
        var out: [[UInt8]] = []
        var word: [UInt8] = []
        var onPath = [Bool](repeating: false, count: n)
        // Depth first in byte order, so the words come out sorted; a live state met again on the current
        // path is a cycle: infinitely many words.
        func visit(_ s: Int) -> Bool {
            if accepting[s] {
                guard out.count < limit else { return false }
                out.append(word)
            }
            onPath[s] = true
            defer { onPath[s] = false }
            for b in 0..<256 {
                let t = Int(table[s * classCount + Int(classOf[b])])
                guard t >= 0, live[t] else { continue }
                if onPath[t] { return false }
                word.append(UInt8(b))
                let ok = visit(t)
                word.removeLast()
                if !ok { return false }
            }
            return true
        }
        return visit(0) ? out : nil
    }
}

extension ByteDFA {
    /// Per state, how many words lead from it to acceptance, saturated at `cap` (a state from which a
    /// cycle of live states is reachable has infinitely many: `cap`).
    public func completionCounts(cap: UInt64) -> [UInt64] {
        let n = stateCount
        var classSize = [UInt64](repeating: 0, count: classCount)
        for b in 0..<256 { classSize[Int(classOf[b])] += 1 }
        // 0: not visited, 1: on the current path, 2: done.
        var color = [UInt8](repeating: 0, count: n)
        var count = [UInt64](repeating: 0, count: n)
        func add(_ a: UInt64, _ b: UInt64) -> UInt64 { let (s, o) = a.addingReportingOverflow(b); return o || s > cap ? cap : s }
        func times(_ a: UInt64, _ b: UInt64) -> UInt64 { let (m, o) = a.multipliedReportingOverflow(by: b); return o || m > cap ? cap : m }
        // Depth first with an explicit stack: (state, next class to try).
        for root in 0..<n where color[root] == 0 {
            var stack: [(Int, Int)] = [(root, 0)]
            color[root] = 1
            count[root] = accepting[root] ? 1 : 0
            while let (s, c) = stack.last {
                if c == classCount {
                    color[s] = 2
                    stack.removeLast()
                    if let (parent, pc) = stack.last {
                        count[parent] = add(count[parent], times(count[s], classSize[pc - 1]))
                    }
                    continue
                }
                stack[stack.count - 1].1 = c + 1
                let t = Int(table[s * classCount + c])
                guard t >= 0 else { continue }
                switch color[t] {
                case 0:
                    color[t] = 1
                    count[t] = accepting[t] ? 1 : 0
                    stack.append((t, 0))
                case 1:
                    // A cycle: infinitely many words through it, if it can reach acceptance at all (a dead
                    // cycle adds nothing). Marked on the way back below.
                    if canAccept(t) { count[s] = cap }
                default:
                    count[s] = add(count[s], times(count[t], classSize[c]))
                }
            }
        }
        return count
    }

    /// Whether some word leads from `state` to acceptance.
    private func canAccept(_ state: Int) -> Bool {
        var seen = Set<Int>([state])
        var stack = [state]
        while let s = stack.popLast() {
            if accepting[s] { return true }
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                if t >= 0 && seen.insert(t).inserted { stack.append(t) }
            }
        }
        return false
    }
}
