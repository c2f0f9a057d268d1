extension Grammar {
    /// The same grammar without the rules unreachable from the start rule: the start rule first, each
    /// kept rule at its old number where that number survives, else in a number an unreachable rule
    /// left (see below), each kept whole (its body renumbered; its member guard, distinct-items
    /// marks, counted length and sharing hint as they were), and the same excluded tokens.
    ///
    /// A rule is copied as a value, not rebuilt attribute by attribute: a rebuild that forgot one
    /// attribute (a counted length) silently dropped the bound it carries from every schema that also
    /// left an unreachable rule behind (a string's `maxLength` beside a pattern, inside an object).
    func prunedToReachable() -> Grammar {
        var walk = ReachableWalk(ruleCount: rules.count, start: start.index)
        var i = 0
        while i < walk.reachable.count {
            walk.current = walk.reachable[i]
            walk.scan(rules[walk.current].body)
            i += 1
        }
        let reachable = walk.reachable
        var index = walk.index
        let highest = walk.highest, namesTokens = walk.namesTokens
        if reachable.count == rules.count && start.index == 0 {
            var same = self
            same.knownTokenFree = !namesTokens && excludedTokens.isEmpty
            return same
        }
        // A reachable rule keeps its number where that number survives (below the count kept); the
        // reachable rules past it fill the numbers of the unreachable ones below it, in order. Only the
        // references to moved rules change, so only the subtrees holding them are copied. (Numbering
        // every kept rule in its old order shifted every rule after the first unreachable one, which
        // lowering makes early: nearly every reference changed, and the rewrite copied most of a large
        // schema's grammar, 2-3 ms of a 17 ms Kubernetes compile.)
        let count = reachable.count
        var order = [Int](repeating: -1, count: count)
        if start.index == 0 {
            // `index[r] >= 0`: rule r was reached (its number as found is replaced below).
            var holes: [Int] = []
            for r in 0..<count { if index[r] >= 0 { order[r] = r } else { holes.append(r) } }
            var next = 0
            for r in count..<rules.count where index[r] >= 0 { order[holes[next]] = r; next += 1 }
        } else {
            // The start must become rule 0: the others in their old order.
            order = [start.index] + reachable.dropFirst().sorted()
        }
        for (k, r) in order.enumerated() { index[r] = k }
        // nil: unchanged. Most subtrees (string characters, literals) hold no rule and are not copied.
        func renumbered(_ e: GrammarExpr) -> GrammarExpr? {
            switch e {
            case .rule(let r):
                let k = index[r.index]
                return k == r.index ? nil : .rule(RuleID(k))
            case .sequence(let parts): return renumbered(parts).map { .sequence($0) }
            case .choice(let parts): return renumbered(parts).map { .choice($0) }
            case .repeat(let inner, let mn, let mx): return renumbered(inner).map { .repeat($0, min: mn, max: mx) }
            case .tokenBudget(let body, let n, let then):
                let b = renumbered(body), t = renumbered(then)
                if b == nil && t == nil { return nil }
                return .tokenBudget(b ?? body, maxTokens: n, then: t ?? then)
            case .empty, .nothing, .bytes, .byteSet, .token: return nil
            }
        }
        func renumbered(_ parts: [GrammarExpr]) -> [GrammarExpr]? {
            var out: [GrammarExpr]? = nil
            for (i, p) in parts.enumerated() {
                guard let q = renumbered(p) else { continue }
                if out == nil { out = parts }
                out![i] = q
            }
            return out
        }
        let kept = order.map { r -> GrammarRule in
            var rule = rules[r]
            if highest[r] >= count || start.index != 0, let body = renumbered(rule.body) { rule.body = body }
            return rule
        }
        var pruned = Grammar(rules: kept, excludedTokens: excludedTokens)
        pruned.knownTokenFree = !namesTokens && excludedTokens.isEmpty
        return pruned
    }
}

/// The reachable rules as `Grammar.prunedToReachable` finds them. A struct passed `inout`, not variables
/// a nested function captures: captured, each access to them was checked for exclusivity at run time
/// (a tenth of this walk, which reads every kept body of a large schema's grammar).
private struct ReachableWalk {
    /// The rules reached, in the order found (the start first).
    var reachable: [Int]
    /// New index of each old rule, -1 while unreached (an array: this runs over every reference).
    var index: [Int]
    /// Per rule, the highest rule number its body refers to: a body referring only below the new
    /// count refers to no moved rule and is kept as it is, without a second walk.
    var highest: [Int]
    /// The walk sees every kept body, so it also tells `usesTokens` (a second whole walk otherwise,
    /// 2-3 % of a large schema's compile).
    var namesTokens = false
    /// The rule whose body is being read.
    var current = 0

    init(ruleCount: Int, start: Int) {
        reachable = [start]
        index = [Int](repeating: -1, count: ruleCount)
        index[start] = 0
        highest = [Int](repeating: -1, count: ruleCount)
    }

    mutating func scan(_ e: GrammarExpr) {
        switch e {
        case .rule(let r):
            if r.index > highest[current] { highest[current] = r.index }
            if index[r.index] < 0 { index[r.index] = reachable.count; reachable.append(r.index) }
        case .sequence(let parts), .choice(let parts): for p in parts { scan(p) }
        case .repeat(let inner, _, _): scan(inner)
        case .tokenBudget(let body, _, let then): namesTokens = true; scan(body); scan(then)
        case .token: namesTokens = true
        case .empty, .nothing, .bytes, .byteSet: break
        }
    }
}
