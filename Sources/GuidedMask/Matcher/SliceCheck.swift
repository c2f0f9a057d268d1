extension GrammarMatcher {
    /// True when `state`'s own rule can read, by byte transitions alone (no pop, no push), every string
    /// of plain JSON string characters up to `slice.maxCharacters` long. Then every token of the slice is
    /// allowed from `state` whatever the stack below holds.
    ///
    /// A search over (automaton state, position in a UTF-8 character, characters read): every byte the
    /// text automaton allows must have a transition. A state inside an unbounded string passes with a
    /// handful of pairs, an object key that must differ from the declared names with one pair per prefix
    /// of those names; the search gives up (false: walk the whole trie instead) past a budget of pairs
    /// and of transitions it has to build, e.g. in a string whose `maxLength` leaves too little room.
    /// A full trie walk costs milliseconds, so a few hundred pairs are worth trying.
    static var sliceCheckNewTransitions: Int { 2048 }

    func sliceApplies(_ slice: TokenSlice, state: Int32) -> Bool {
        let t = compiled.tables
        let bounded = slice.maxCharacters != Int.max
        let depthLimit = bounded ? slice.maxCharacters : 0
        // A bounded string's chain of length-counting states has at most 8 per character (one per position
        // inside a UTF-8 character); twice that is the most we explore. Unbounded: 512 pairs, enough for
        // a key automaton that excludes a few dozen declared names.
        let budget = bounded ? 16 * (depthLimit + 1) : 512
        // Each transition not yet made costs a subset construction, which on a big NFA can cost more than
        // the trie walk this check tries to save (an unanchored alternation of hundreds of words).
        var unmade = 0
        var seen = Set<Int>(minimumCapacity: budget + 1)
        var stack: [(state: Int32, u: UInt8, depth: Int)] = [(state, SliceUTF8.boundary, 0)]
        while let (q, u, d) = stack.popLast() {
            let key = (Int(q) * SliceUTF8.stateCount + Int(u)) * (depthLimit + 1) + d
            if !seen.insert(key).inserted { continue }
            if seen.count > budget { return false }
            if bounded && u == SliceUTF8.boundary && d == depthLimit { continue }
            for (cls, u2) in compiled.sliceEdges[Int(u)] {
                var target = t.next[Int(q) &* t.classCount &+ Int(cls)]
                if target == 0 {
                    unmade += 1
                    if unmade > Self.sliceCheckNewTransitions { return false }
                    target = t.automaton.materialize(q, Int(cls))
                }
                if target < 0 { return false }
                let d2 = bounded && u2 == SliceUTF8.boundary ? d + 1 : d
                stack.append((target, u2, d2))
            }
        }
        return true
    }
}
