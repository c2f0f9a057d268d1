/// Counted repeats whose body is built once as a minimal DFA and copied as such.
///
/// A Thompson copy of a body is as large as the body's expression: a character class in JSON string
/// text (`\S`, `\w` with Unicode ranges: `JSONText.chars`) is a choice of UTF-8 sequences and escapes,
/// and `(?:\S+\s+){0,29}` written out copy by copy is 8,934 NFA states, which the subset construction
/// then met in its sets. The body's minimal DFA accepts the same strings, and 30 copies of it are 1,801
/// states (`RepeatedBodyTests`).
extension ByteNFA {
    /// Copies from which a repeat's body is built as a DFA (below it, one copy's subset construction
    /// costs about what it saves).
    static let compiledBodyFrom = 3

    /// The minimal DFA of `inner`, or nil where a plain copy is as small (a byte, a byte string, a body
    /// whose Thompson copy has no more states than the DFA's copy) or the body passes the automaton
    /// limits (the plain copies then meet the same limits or not, as before).
    mutating func bodyDFA(_ inner: GrammarExpr) throws(AutomatonError) -> ByteDFA? {
        switch inner {
        case .bytes, .byteSet, .empty, .nothing: return nil
        default: break
        }
        if let known = bodyDFAs[inner] { return known }
        var sub = ByteNFA(limit: limit, grammar: grammar, activeRules: activeRules, limits: limits)
        sub.start = try sub.newState()
        sub.accept = try sub.build(inner, from: sub.start)
        // A recursive rule inside the body is an error of the whole expression: rethrown. Past a limit,
        // the body is copied as before.
        var dfa: ByteDFA?
        do { dfa = try ByteDFA.subsetConstruction(sub, limit: limits.maxDFAStates).minimized() } catch {
            if case .recursiveRule = error { throw error }
            dfa = nil
        }
        // A copy of the DFA takes its states and an end state; a body whose Thompson copy is no larger
        // (`a{2}`, `ab|a`) is copied as before.
        if let d = dfa, d.stateCount + 1 >= sub.stateCount { dfa = nil }
        bodyDFAs[inner] = dfa
        return dfa
    }

    /// A copy of `dfa` entered from `s` by ε; returns the state its accepting states reach by ε. The
    /// copy's states are new, so nothing else leaves from them.
    mutating func embed(_ dfa: ByteDFA, from s: Int32) throws(AutomatonError) -> Int32 {
        var sets = [ByteSet](repeating: ByteSet(), count: dfa.classCount)
        for b in 0..<256 { sets[Int(dfa.classOf[b])].insert(UInt8(b)) }
        let first = Int32(epsilon.count)
        for _ in 0..<dfa.stateCount { _ = try newState() }
        let end = try newState()
        epsilon[Int(s)].append(first)
        for q in 0..<dfa.stateCount {
            // Classes that lead to the same state share one edge.
            var byTarget: [(target: Int32, set: ByteSet)] = []
            for c in 0..<dfa.classCount {
                let t = dfa.table[q * dfa.classCount + c]
                guard t >= 0 else { continue }
                if let i = byTarget.firstIndex(where: { $0.target == t }) { byTarget[i].set = byTarget[i].set.union(sets[c]) }
                else { byTarget.append((t, sets[c])) }
            }
            edges[Int(first) + q] = byTarget.map { Edge(set: $0.set, target: first + $0.target) }
            if dfa.accepting[q] { epsilon[Int(first) + q].append(end) }
        }
        return end
    }
}
