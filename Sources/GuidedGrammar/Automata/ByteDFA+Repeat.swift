/// Bounded and unbounded repetition of a DFA's language, built directly on DFAs.
extension ByteDFA {
    /// Whether no accepted string is a proper prefix of another accepted string: in a minimal DFA,
    /// no accepting state has a way on. One character in UTF-8 or in a JSON string is prefix-free.
    public var isPrefixFree: Bool {
        for s in 0..<stateCount where accepting[s] {
            for c in 0..<classCount where table[s * classCount + c] >= 0 { return false }
        }
        return true
    }

    /// Strings made of `min` to `max` (nil: unbounded) strings of this DFA's language, in sequence:
    /// e.g. "1 to 64 characters" from the DFA of one character, for `minLength`/`maxLength`.
    ///
    /// For a prefix-free language (one character) the result is built directly as copies of the
    /// automaton chained at their accepting state, in O(count × states × classes) with no subset
    /// construction; otherwise through an NFA of chained copies. Bounded by `limits`.
    public func repeated(min rawMin: Int, max hi: Int?, limits: AutomatonLimits = .default) throws(AutomatonError) -> ByteDFA {
        let lo = Swift.max(0, rawMin)
        if let hi, hi < lo { return .emptyLanguage }  // no count satisfies both bounds
        guard !isEmpty else { return lo == 0 ? try ByteDFA(.empty) : .emptyLanguage }
        if acceptsEmpty || !isPrefixFree { return try repeatedThroughNFA(min: lo, max: hi, limits: limits) }
        // Copy i (i = strings read so far) holds the non-accepting states; reaching an accepting
        // state means one more string: go to the start of copy i + 1.
        let inner = (0..<stateCount).filter { !accepting[$0] }
        var index = [Int](repeating: -1, count: stateCount)
        for (k, s) in inner.enumerated() { index[s] = k }
        // Copies 0..<full of the non-accepting states, then one more state, `end`. Bounded: `end` is
        // "all `hi` strings read" and nothing may follow. Unbounded (lo ≥ 1): `end` is "at least `lo`
        // read"; a string begun there is in the same position as one begun at the last copy's start,
        // so `end` leads into the last copy and the last copy leads back to `end`. Unbounded with
        // lo = 0: one copy whose start accepts and is where every string ends.
        let width = inner.count
        let full = hi ?? Swift.max(lo, 1)
        let hasEnd = hi != nil || lo > 0
        guard full <= (limits.maxDFAStates - 1) / Swift.max(1, width) else { throw .tooManyStates(limit: limits.maxDFAStates) }
        let stateTotal = full * width + (hasEnd ? 1 : 0)
        let end = Int32(full * width)
        var newTable = [Int32](repeating: -1, count: stateTotal * classCount)
        var newAccepting = [Bool](repeating: false, count: stateTotal)
        func fillRow(_ row: Int, from s: Int, copy i: Int, completed: Int32) {
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                guard t >= 0 else { continue }
                newTable[row + c] = accepting[t] ? completed : Int32(i * width + index[t])
            }
        }
        for i in 0..<full {
            let completed: Int32 = i + 1 < full ? Int32((i + 1) * width) : (hasEnd ? end : 0)
            for (k, s) in inner.enumerated() { fillRow((i * width + k) * classCount, from: s, copy: i, completed: completed) }
            newAccepting[i * width] = i >= lo  // index[0] == 0: the start is not accepting
        }
        if hasEnd {
            newAccepting[Int(end)] = true
            if hi == nil { fillRow(Int(end) * classCount, from: 0, copy: full - 1, completed: end) }
        }
        // Minimal when `self` is: states of different copies differ in how many strings may still
        // follow, states of one copy differ as they do in `self` (a prefix-free language splits a text
        // one way only); every state is reachable and can reach acceptance; state 0 is the start.
        return ByteDFA(classOf: classOf, classCount: classCount, table: newTable, accepting: newAccepting)
    }

    /// The general case: chained copies as an NFA, then subset construction.
    private func repeatedThroughNFA(min lo: Int, max hi: Int?, limits: AutomatonLimits) throws(AutomatonError) -> ByteDFA {
        // One copy as an expression with rule-free structure is not available in general, so the
        // copy is written as a grammar: one rule per state, inlined by the NFA builder copy by copy.
        var copy = ByteNFA.Copyable(dfa: self, bytesOfClass: bytesOfClass)
        let nfa = try copy.repeatNFA(min: lo, max: hi, limit: limits.maxNFAStates)
        return try Self.subsetConstruction(nfa, limit: limits.maxDFAStates).minimized()
    }
}

extension ByteNFA {
    /// Builds NFAs made of copies of a DFA.
    struct Copyable {
        let dfa: ByteDFA
        let bytesOfClass: [ByteSet]

        mutating func repeatNFA(min lo: Int, max hi: Int?, limit: Int) throws(AutomatonError) -> ByteNFA {
            var nfa = ByteNFA(limit: limit)
            let start = try nfa.newState()
            nfa.start = start
            let accept = try nfa.newState()
            nfa.accept = accept
            var boundary = start  // after i copies
            let copies = hi ?? lo
            for i in 0...copies {
                if i >= lo { nfa.epsilon[Int(boundary)].append(accept) }
                if i == copies && hi != nil { break }
                let base = try addCopy(&nfa)
                nfa.epsilon[Int(boundary)].append(base)
                let after = (hi == nil && i == copies) ? boundary : try nfa.newState()
                for s in 0..<dfa.stateCount where dfa.accepting[s] {
                    nfa.epsilon[Int(base) + s].append(after)
                }
                if hi == nil && i == copies { break }
                boundary = after
            }
            return nfa
        }

        /// Appends one copy of the DFA; returns the NFA state of its start (states are contiguous).
        private func addCopy(_ nfa: inout ByteNFA) throws(AutomatonError) -> Int32 {
            let base = Int32(nfa.stateCount)
            for _ in 0..<dfa.stateCount { _ = try nfa.newState() }
            for s in 0..<dfa.stateCount {
                for c in 0..<dfa.classCount {
                    let t = dfa.table[s * dfa.classCount + c]
                    if t >= 0 { nfa.edges[Int(base) + s].append(Edge(set: bytesOfClass[c], target: base + t)) }
                }
            }
            return base
        }
    }
}
