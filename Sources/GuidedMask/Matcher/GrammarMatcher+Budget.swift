extension GrammarMatcher {
    /// The budget (index into `TokenSymbols.budgetClasses`) the configuration `cp` is inside, or -1: a
    /// stack whose top can read a budget's cut class is inside that budget's body (see
    /// `NFABuilder.buildBudget`). Budgets do not nest, so the first one found is the one.
    func budgetRegion(of cp: Checkpoint) -> Int {
        let symbols = compiled.symbols, t = compiled.tables
        var i = Int(cp.setStart)
        while i < Int(cp.setEnd) {
            let q = engine.nodes[Int(sets[i])].state
            for (k, c) in symbols.budgetClasses.enumerated() where t.target(q, Int(c)) >= 0 { return k }
            i += 1
        }
        return -1
    }

    /// After a token was committed: counts it if the parse was inside a budget before it (tokens in a
    /// row that began inside one budget; a token that begins outside resets the count), and when the
    /// parse is inside a budget whose count has reached its limit, cuts: every stack still inside reads
    /// the cut class (the rest of its body is dropped, `then` follows), the others stay. A budget of k
    /// allows k tokens after the one that entered it (0: the body is cut at once). `accept(bytes:)`
    /// counts nothing: it has no token boundaries.
    mutating func countBudget(region before: Int, before cp0: Checkpoint) throws(MatcherError) {
        let last = checkpoints.count - 1
        let symbols = compiled.symbols
        let after = budgetRegion(of: checkpoints[last])
        let count: Int32 = before >= 0 && before == after ? cp0.budgetCount &+ 1 : 0
        checkpoints[last].budgetCount = count
        guard after >= 0, count >= symbols.budgetTokens[after] else { return }
        let region = after
        let cls = Int(symbols.budgetClasses[region])
        let t = compiled.tables
        let cp = checkpoints[last]
        engine.items.removeAll(keepingCapacity: true)
        var cut = false
        for i in Int(cp.setStart)..<Int(cp.setEnd) {
            let id = sets[i]
            let n = engine.nodes[Int(id)]
            let q = t.target(n.state, cls)
            if q >= 0 {
                engine.items.append(engine.make(q, n.parent))
                cut = true
            } else {
                engine.items.append(id)
            }
        }
        guard cut else { engine.items.removeAll(keepingCapacity: true); return }
        let closed = engine.close(0, engine.items.count, t, maxStacks: compiled.limits.maxStacks)
        if engine.overflow {
            engine.overflow = false
            try fail(.tooManyStacks(limit: compiled.limits.maxStacks))
        }
        try checkAutomaton()
        sets.removeLast(sets.count - Int(cp.setStart))
        sets.append(contentsOf: engine.items[closed.lo..<closed.hi])
        engine.items.removeAll(keepingCapacity: true)
        checkpoints[last].setEnd = Int32(sets.count)
        checkpoints[last].nodeCount = Int32(engine.nodes.count)
        checkpoints[last].budgetCount = 0
        checkpoints[last].flags = closed.accept ? cp.flags | 1 : cp.flags & ~1
    }
}
