extension Grammar {
    /// The same grammar without the rules unreachable from the start rule: the start rule first, the
    /// others in their old order, each kept whole (its body renumbered; its member guard, distinct-items
    /// marks, counted length and sharing hint as they were), and the same excluded tokens.
    ///
    /// A rule is copied as a value, not rebuilt attribute by attribute: a rebuild that forgot one
    /// attribute (a counted length) silently dropped the bound it carries from every schema that also
    /// left an unreachable rule behind (a string's `maxLength` beside a pattern, inside an object).
    func prunedToReachable() -> Grammar {
        var reachable: [Int] = [start.index]
        // New index of each old rule, -1 while unreached (an array: this runs over every reference).
        var index = [Int](repeating: -1, count: rules.count)
        index[start.index] = 0
        func scan(_ e: GrammarExpr) {
            switch e {
            case .rule(let r):
                if index[r.index] < 0 { index[r.index] = reachable.count; reachable.append(r.index) }
            case .sequence(let parts), .choice(let parts): parts.forEach(scan)
            case .repeat(let inner, _, _): scan(inner)
            case .tokenBudget(let body, _, let then): scan(body); scan(then)
            case .empty, .nothing, .bytes, .byteSet, .token: break
            }
        }
        var i = 0
        while i < reachable.count { scan(rules[reachable[i]].body); i += 1 }
        if reachable.count == rules.count && start.index == 0 { return self }
        // Numbered in their old order (the start first), not in the order found: every rule before the
        // first unreachable one keeps its number, so the references to it, and the subtrees holding only
        // such references, are not copied (numbered as found, nearly every reference changed, and the
        // rewrite copied most of a large schema's grammar).
        reachable = [start.index] + reachable.dropFirst().sorted()
        for (k, r) in reachable.enumerated() { index[r] = k }
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
        let kept = reachable.map { r -> GrammarRule in
            var rule = rules[r]
            if let body = renumbered(rule.body) { rule.body = body }
            return rule
        }
        return Grammar(rules: kept, excludedTokens: excludedTokens)
    }
}
