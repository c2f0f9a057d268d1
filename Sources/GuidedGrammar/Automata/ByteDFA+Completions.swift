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
        guard stateCount > 0 else { return false }
        let live = liveStates()
        guard live[0] else { return false }
        for s in 0..<stateCount where live[s] {
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
        let live = liveStates()
        guard live[0] else { return [] }
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
    /// Per state reachable from the start, how many words lead from it to acceptance, saturated at `cap`
    /// (a state from which a cycle of live states is reachable has infinitely many: `cap`). Other
    /// states read 0.
    public func completionCounts(cap: UInt64) -> [UInt64] {
        let n = stateCount
        guard n > 0 else { return [] }
        let live = liveStates()
        var classSize = [UInt64](repeating: 0, count: classCount)
        for b in 0..<256 { classSize[Int(classOf[b])] += 1 }
        // 0: not visited, 1: on the current path, 2: done.
        var color = [UInt8](repeating: 0, count: n)
        var count = [UInt64](repeating: 0, count: n)
        func add(_ a: UInt64, _ b: UInt64) -> UInt64 { let (s, o) = a.addingReportingOverflow(b); return o || s > cap ? cap : s }
        func times(_ a: UInt64, _ b: UInt64) -> UInt64 { let (m, o) = a.multipliedReportingOverflow(by: b); return o || m > cap ? cap : m }
        // Depth first from the start with an explicit stack: (state, next class to try).
        var stack: [(Int, Int)] = [(0, 0)]
        color[0] = 1
        count[0] = accepting[0] ? 1 : 0
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
            guard t >= 0, live[t] else { continue }
            switch color[t] {
            case 0:
                color[t] = 1
                count[t] = accepting[t] ? 1 : 0
                stack.append((t, 0))
            case 1:
                // A cycle of live states: infinitely many words through it.
                count[s] = cap
            default:
                count[s] = add(count[s], times(count[t], classSize[c]))
            }
        }
        return count
    }
}

extension ByteDFA {
    /// The length in bytes of the longest accepted word, or nil where the language is infinite (a cycle
    /// among the live states reachable from the start) or empty.
    public var longestWordLength: Int? {
        guard stateCount > 0 else { return nil }
        let live = liveStates()
        guard live[0] else { return nil }
        // Longest path to acceptance over live states, by depth-first search; a state met on the path is
        // a cycle.
        var longest = [Int](repeating: -1, count: stateCount)
        var onPath = [Bool](repeating: false, count: stateCount)
        var stack: [(state: Int, next: Int)] = [(0, 0)]
        onPath[0] = true
        while let top = stack.last {
            let s = top.state
            if top.next < classCount {
                stack[stack.count - 1].next += 1
                let t = Int(table[s * classCount + top.next])
                guard t >= 0, live[t] else { continue }
                if onPath[t] { return nil }
                if longest[t] < 0 { onPath[t] = true; stack.append((t, 0)) }
                continue
            }
            var best = accepting[s] ? 0 : Int.min
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                if t >= 0 && live[t] && longest[t] >= 0 { best = max(best, longest[t] + 1) }
            }
            longest[s] = max(best, 0)
            onPath[s] = false
            stack.removeLast()
        }
        return longest[0]
    }
}
