extension GrammarMatcher {
    /// True when `state`'s own rule can read, by byte transitions alone (no pop, no push), every string
    /// of plain JSON string characters up to `slice.maxCharacters` long. Then every token of the slice is
    /// allowed from `state` whatever the stack below holds.
    ///
    /// A search over (automaton state, position in a UTF-8 character, characters read): every byte the
    /// text automaton allows must have a transition. A state inside an unbounded string passes with a
    /// handful of pairs; the search gives up (false: walk the whole trie instead) past a small budget,
    /// e.g. in a string whose `maxLength` leaves too little room.
    func sliceApplies(_ slice: TokenSlice, state: Int32) -> Bool {
        let t = compiled.tables
        let bounded = slice.maxCharacters != Int.max
        let depthLimit = bounded ? slice.maxCharacters : 0
        let budget = bounded ? 8 * (depthLimit + 1) * 4 : 64
        // Few nodes (a string's loop, or a chain of length-counting states): a flat list beats hashing.
        var seen: [Int] = []
        seen.reserveCapacity(budget + 1)
        var stack: [(state: Int32, u: UInt8, depth: Int)] = [(state, SliceUTF8.boundary, 0)]
        while let (q, u, d) = stack.popLast() {
            let key = (Int(q) * SliceUTF8.stateCount + Int(u)) * (depthLimit + 1) + d
            if seen.contains(key) { continue }
            seen.append(key)
            if seen.count > budget { return false }
            if bounded && u == SliceUTF8.boundary && d == depthLimit { continue }
            var lastClass = -1
            var lastTarget: Int32 = -1
            for (b, u2) in SliceUTF8.edges[Int(u)] {
                let cls = Int(t.classOf[Int(b)])
                if cls != lastClass { lastClass = cls; lastTarget = t.target(q, cls) }
                if lastTarget < 0 { return false }
                let d2 = bounded && u2 == SliceUTF8.boundary ? d + 1 : d
                stack.append((lastTarget, u2, d2))
            }
        }
        return true
    }
}
