extension Grammar {
    /// Adds every rule of `other` (names prefixed with `prefix`, references renumbered, mask-compiler
    /// hints kept) and returns the id of its start rule. Its excluded tokens become this grammar's too.
    public mutating func embed(_ other: Grammar, prefix: String) -> RuleID {
        let base = rules.count
        for rule in other.rules { _ = declareRule(name: prefix + rule.name) }
        for (k, rule) in other.rules.enumerated() {
            let id = RuleID(base + k)
            define(id, as: rule.body.shiftingRules(by: base))
            if rule.shared { markShared(id) }
            if rule.hasMemberGuard || rule.distinctStringItems { setMemberGuard(id, like: rule) }
            if let c = rule.countedLength { markCountedLength(id, c) }
        }
        for t in other.excludedTokens where !excludedTokens.contains(t) { excludedTokens.append(t) }
        return RuleID(base + other.start.index)
    }
}

extension GrammarExpr {
    /// The same expression with every rule reference moved up by `offset`.
    func shiftingRules(by offset: Int) -> GrammarExpr {
        switch self {
        case .rule(let r): return .rule(RuleID(r.index + offset))
        case .sequence(let parts): return .sequence(parts.map { $0.shiftingRules(by: offset) })
        case .choice(let parts): return .choice(parts.map { $0.shiftingRules(by: offset) })
        case .repeat(let inner, let lo, let hi): return .repeat(inner.shiftingRules(by: offset), min: lo, max: hi)
        case .tokenBudget(let body, let n, let then):
            return .tokenBudget(body.shiftingRules(by: offset), maxTokens: n, then: then.shiftingRules(by: offset))
        case .empty, .nothing, .bytes, .byteSet, .token: return self
        }
    }
}
