/// Turning a DFA back into grammar rules.
extension ByteDFA {
    /// An expression for the DFA's language, adding rules to `grammar` only where needed.
    ///
    /// First tries state elimination (the DFA → regex construction), which gives one rule-free,
    /// regular expression (stars for loops) when the result stays within `maxExpressionSize` nodes
    /// and the DFA has at most `maxEliminationStates` states. Otherwise falls back to rules:
    /// states on a cycle through other states become right-linear rules (`s ::= [a-z] t | ε`), named
    /// `name_s<i>`; a state's self-loop becomes a `*`; states with one predecessor and no cycle are
    /// inlined, and so are small ones with several predecessors. Either way the expression accepts
    /// exactly the DFA's language.
    ///
    /// `followedBy` is what comes after the DFA's text (the closing quote of a string): the expression
    /// then spells the DFA's language followed by it. In the rule form each accepting state ends with
    /// it, so every reference to a state's rule is a tail reference: the mask compiler then builds the
    /// states as one chain (once per place the whole is used) instead of calling rules in the middle
    /// of the text, where no token slice applies.
    public func grammarExpr(into grammar: inout Grammar, name: String, followedBy next: GrammarExpr = .empty,
                            maxExpressionSize: Int = 8192, maxEliminationStates: Int = 400) -> GrammarExpr {
        if stateCount <= maxEliminationStates, let e = eliminatedExpression(budget: maxExpressionSize) {
            return RegexLowering.makeSequence([e, next])
        }
        return ruleExpression(into: &grammar, name: name, followedBy: next)
    }

    /// State elimination (Brzozowski–McCluskey) with a size budget; nil when over budget.
    ///
    /// Parallel paths between two states are kept as a list of alternatives, made one choice when the
    /// edge is read: merging each new path into the edge's choice at once compared it with all the
    /// alternatives already there, which made the edges that gather many paths (into the final state,
    /// around a loop) quadratic (a `oneOf` of 18 case-insensitive patterns spent half its elimination
    /// there). The choice made is the same: `makeChoice` of all of them, in the order they came.
    func eliminatedExpression(budget: Int) -> GrammarExpr? {
        let n = stateCount
        let start = n, final = n + 1
        var out = [[Int: EliminationEdge]](repeating: [:], count: n + 2)
        var incoming = [Set<Int>](repeating: [], count: n + 2)
        func label(_ set: ByteSet) -> GrammarExpr { set.count == 1 ? .bytes([set.lowest!]) : .byteSet(set) }
        func add(_ p: Int, _ q: Int, _ e: GrammarExpr, _ size: Int) -> Bool {
            if var old = out[p][q] {
                // Two byte sets are one (as `makeChoice` of them would not make them).
                if old.parts.count == 1, let a = Self.singleByteSet(old.parts[0]), let b = Self.singleByteSet(e) {
                    old.parts[0] = label(a.union(b))
                    old.size = 1
                } else {
                    old.parts.append(e)
                    old.size += size + 1
                }
                out[p][q] = old
            } else {
                out[p][q] = EliminationEdge(parts: [e], size: size)
                incoming[q].insert(p)
            }
            return out[p][q]!.size <= budget
        }
        _ = add(start, 0, .empty, 1)
        let bytesOfClass = self.bytesOfClass
        for s in 0..<n {
            if accepting[s] { _ = add(s, final, .empty, 1) }
            for (t, set) in edges(from: s, bytesOfClass) { _ = add(s, Int(t), label(set), 1) }
        }
        var remaining = Set(0..<n)
        while !remaining.isEmpty {
            // Eliminate the state that creates the fewest new edges.
            var best = -1, bestCost = Int.max
            for s in remaining {
                let ins = incoming[s].count - (incoming[s].contains(s) ? 1 : 0)
                let outs = out[s].count - (out[s][s] != nil ? 1 : 0)
                let cost = ins * outs
                if cost < bestCost || (cost == bestCost && s < best) { best = s; bestCost = cost }
            }
            let s = best
            remaining.remove(s)
            let loop = out[s][s]
            out[s][s] = nil
            incoming[s].remove(s)
            let star: (GrammarExpr, Int)? = loop.map { (.repeat($0.expr, min: 0, max: nil), $0.size + 1) }
            let exits = out[s].map { (q: $0.key, expr: $0.value.expr, size: $0.value.size) }
            for p in incoming[s] {
                guard let into = out[p][s] else { continue }
                let intoExpr = into.expr
                for (q, fromExpr, fromSize) in exits {
                    var parts = [intoExpr]
                    var size = into.size + fromSize + 1
                    if let star { parts.append(star.0); size += star.1 }
                    parts.append(fromExpr)
                    if !add(p, q, RegexLowering.makeSequence(parts), size) { return nil }
                }
                out[p][s] = nil
            }
            for q in out[s].keys { incoming[q].remove(s) }
            out[s] = [:]
            incoming[s] = []
        }
        return out[start][final]?.expr ?? .nothing
    }

    /// The paths between two states of `eliminatedExpression`: the alternatives in the order they came,
    /// and the size the budget counts.
    struct EliminationEdge {
        var parts: [GrammarExpr]
        var size: Int
        var expr: GrammarExpr { parts.count == 1 ? parts[0] : RegexLowering.makeChoice(parts) }
    }

    /// The bytes of each class.
    var bytesOfClass: [ByteSet] {
        var sets = [ByteSet](repeating: ByteSet(), count: classCount)
        for b in 0..<256 { sets[Int(classOf[b])].insert(UInt8(b)) }
        return sets
    }

    /// A state's outgoing edges, one per target (the union of the classes leading there), in target
    /// order. Walks the state's row of classes, not its 256 bytes.
    func edges(from s: Int, _ bytesOfClass: [ByteSet]) -> [(target: Int32, bytes: ByteSet)] {
        var edges: [(target: Int32, bytes: ByteSet)] = []
        let row = s * classCount
        for c in 0..<classCount {
            let t = table[row + c]
            guard t >= 0 else { continue }
            if let i = edges.firstIndex(where: { $0.target == t }) { edges[i].bytes = edges[i].bytes.union(bytesOfClass[c]) }
            else { edges.append((t, bytesOfClass[c])) }
        }
        edges.sort { $0.target < $1.target }
        return edges
    }

    /// A choice of alternatives known to be distinct: nested choices flattened and ∅ dropped, as
    /// `RegexLowering.makeChoice` does, without comparing the alternatives.
    private static func distinctChoice(_ parts: [GrammarExpr]) -> GrammarExpr {
        var out: [GrammarExpr] = []
        out.reserveCapacity(parts.count)
        for p in parts {
            switch p {
            case .nothing: continue
            case .choice(let inner): out.append(contentsOf: inner.filter { if case .nothing = $0 { return false }; return true })
            default: out.append(p)
            }
        }
        switch out.count {
        case 0: return .nothing
        case 1: return out[0]
        default: return .choice(out)
        }
    }

    private static func singleByteSet(_ e: GrammarExpr) -> ByteSet? {
        switch e {
        case .byteSet(let s): return s
        case .bytes(let b) where b.count == 1: return ByteSet(b)
        default: return nil
        }
    }

    /// The rule-based conversion: right-linear rules for states on cycles, inlining elsewhere.
    func ruleExpression(into grammar: inout Grammar, name: String, followedBy next: GrammarExpr = .empty) -> GrammarExpr {
        ruleExpression(into: &grammar, name: name, after: { _ in next })
    }

    /// `ruleExpression` where each accepting state `s` goes on with `after(s)` (what follows depends on
    /// how the text ended, e.g. which part of a `LabelledProduct` it is in).
    public func ruleExpression(into grammar: inout Grammar, name: String, after: (Int) -> GrammarExpr) -> GrammarExpr {
        ruleExpressions(into: &grammar, name: name, entries: [0], after: after)[0]
    }

    /// `ruleExpression` entered at each of `entries` (states); where there are several, each is a rule.
    public func ruleExpressions(into grammar: inout Grammar, name: String, entries: [Int], after: (Int) -> GrammarExpr) -> [GrammarExpr] {
        let n = stateCount
        if n == 1 && !accepting[0] && (0..<classCount).allSatisfy({ table[$0] < 0 }) { return entries.map { _ in .nothing } }

        // Outgoing edges grouped by target, in target order.
        var out = [[(target: Int32, bytes: ByteSet)]](repeating: [], count: n)
        // Distinct other states with an edge into each state (`edges` lists each target once): a count,
        // not a set per state, which hashed every edge of a long string intersection's automaton.
        var predecessors = [Int](repeating: 0, count: n)
        let bytesOfClass = self.bytesOfClass
        for s in 0..<n {
            out[s] = edges(from: s, bytesOfClass)
            for (t, _) in out[s] where Int(t) != s { predecessors[Int(t)] += 1 }
        }
        let component = stronglyConnectedComponents(out)
        var componentSize: [Int: Int] = [:]
        for c in component { componentSize[c, default: 0] += 1 }

        // Which states get a rule.
        var needsRule = [Bool](repeating: false, count: n)
        for s in 0..<n {
            let trivial = out[s].isEmpty || (out[s].count == 1 && out[s][0].target != Int32(s) && out[Int(out[s][0].target)].isEmpty)
            needsRule[s] = componentSize[component[s]]! > 1 || (predecessors[s] + (s == 0 ? 1 : 0) > 1 && !trivial)
        }
        if entries.count > 1 { for e in entries { needsRule[e] = true } }
        var ruleOf = [RuleID?](repeating: nil, count: n)
        for s in 0..<n where needsRule[s] { ruleOf[s] = grammar.declareRule(name: "\(name)_s\(s)") }

        // Bodies, computed bottom-up over inlined states (acyclic apart from self-loops).
        var body = [GrammarExpr?](repeating: nil, count: n)
        func reference(_ t: Int32) -> GrammarExpr {
            if let r = ruleOf[Int(t)] { return .rule(r) }
            return body[Int(t)]!
        }
        func makeBody(_ s: Int) -> GrammarExpr {
            var alternatives: [GrammarExpr] = accepting[s] ? [after(s)] : []
            var loop: ByteSet? = nil
            for (t, bytes) in out[s] {
                if Int(t) == s { loop = bytes; continue }
                let head: GrammarExpr = bytes.count == 1 ? .bytes([bytes.lowest!]) : .byteSet(bytes)
                alternatives.append(RegexLowering.makeSequence([head, reference(t)]))
            }
            // The edges lead to distinct targets on disjoint bytes, so no two alternatives are equal:
            // `makeChoice`'s search for duplicates (expression equality) was a tenth of writing a
            // name automaton's hundreds of states.
            let rest = Self.distinctChoice(alternatives)
            guard let loop else { return rest }
            let star = GrammarExpr.repeat(loop.count == 1 ? .bytes([loop.lowest!]) : .byteSet(loop), min: 0, max: nil)
            return RegexLowering.makeSequence([star, rest])
        }
        // Iterative post-order so long chains do not recurse deeply.
        var visited = [Bool](repeating: false, count: n)
        func compute(_ root: Int) {
            var stack: [(Int, Bool)] = [(root, false)]
            while let (s, expanded) = stack.popLast() {
                if expanded { body[s] = makeBody(s); continue }
                if visited[s] { continue }
                visited[s] = true
                stack.append((s, true))
                for (t, _) in out[s] where Int(t) != s && !needsRule[Int(t)] && !visited[Int(t)] {
                    stack.append((Int(t), false))
                }
            }
        }
        for s in 0..<n where needsRule[s] {
            for (t, _) in out[s] where !needsRule[Int(t)] { compute(Int(t)) }
        }
        for e in entries { compute(e) }
        for s in 0..<n where needsRule[s] { grammar.define(ruleOf[s]!, as: makeBody(s)) }
        return entries.map { reference(Int32($0)) }
    }

    /// Component index per state (Kosaraju, iterative).
    private func stronglyConnectedComponents(_ out: [[(target: Int32, bytes: ByteSet)]]) -> [Int] {
        let n = out.count
        var order: [Int] = []
        var visited = [Bool](repeating: false, count: n)
        for root in 0..<n where !visited[root] {
            var stack: [(Int, Int)] = [(root, 0)]
            visited[root] = true
            while let (s, i) = stack.popLast() {
                if i < out[s].count {
                    stack.append((s, i + 1))
                    let t = Int(out[s][i].target)
                    if !visited[t] { visited[t] = true; stack.append((t, 0)) }
                } else {
                    order.append(s)
                }
            }
        }
        var reverse = [[Int]](repeating: [], count: n)
        for s in 0..<n { for (t, _) in out[s] { reverse[Int(t)].append(s) } }
        var component = [Int](repeating: -1, count: n)
        var count = 0
        for root in order.reversed() where component[root] < 0 {
            var stack = [root]
            component[root] = count
            while let s = stack.popLast() {
                for p in reverse[s] where component[p] < 0 { component[p] = count; stack.append(p) }
            }
            count += 1
        }
        return component
    }
}
