extension Grammar {
    /// Whether `e` may match the empty byte string, its rules read in this grammar. An upper bound:
    /// true where it cannot tell (a rule met again inside itself, a token), so false is certain.
    func mayMatchEmpty(_ e: GrammarExpr) -> Bool {
        var visiting: Set<RuleID> = []
        return mayMatchEmpty(e, visiting: &visiting)
    }

    private func mayMatchEmpty(_ e: GrammarExpr, visiting: inout Set<RuleID>) -> Bool {
        switch e {
        case .empty: return true
        case .nothing, .byteSet: return false
        case .bytes(let bs): return bs.isEmpty
        case .sequence(let parts): return parts.allSatisfy { mayMatchEmpty($0, visiting: &visiting) }
        case .choice(let alternatives): return alternatives.contains { mayMatchEmpty($0, visiting: &visiting) }
        case .repeat(let inner, let lo, _): return lo == 0 || mayMatchEmpty(inner, visiting: &visiting)
        case .rule(let id):
            guard id.index >= 0, id.index < rules.count, visiting.insert(id).inserted else { return true }
            defer { visiting.remove(id) }
            return mayMatchEmpty(self[id].body, visiting: &visiting)
        case .token, .tokenBudget: return true
        }
    }
}
