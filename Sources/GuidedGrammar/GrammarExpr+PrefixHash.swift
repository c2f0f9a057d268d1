extension GrammarExpr {
    /// Hashes the first `limit` nodes of the expression in pre-order (each node's case and payload, each
    /// list's length): equal expressions give equal hashes, and a key holding a large expression (a
    /// member's inlined string automaton, thousands of nodes) costs a bounded hash instead of a walk of
    /// the whole tree at every lookup. Keys that share their first nodes are told apart by `==`.
    func hashPrefix(into hasher: inout Hasher, limit: Int = 64) {
        var budget = limit
        hashPrefix(into: &hasher, budget: &budget)
    }

    private func hashPrefix(into hasher: inout Hasher, budget: inout Int) {
        guard budget > 0 else { return }
        budget -= 1
        switch self {
        case .empty: hasher.combine(0)
        case .nothing: hasher.combine(1)
        case .bytes(let b): hasher.combine(2); hasher.combine(b)
        case .byteSet(let s): hasher.combine(3); hasher.combine(s)
        case .sequence(let parts), .choice(let parts):
            if case .sequence = self { hasher.combine(4) } else { hasher.combine(5) }
            hasher.combine(parts.count)
            for p in parts {
                guard budget > 0 else { return }
                p.hashPrefix(into: &hasher, budget: &budget)
            }
        case .repeat(let inner, let min, let max):
            hasher.combine(6); hasher.combine(min); hasher.combine(max)
            inner.hashPrefix(into: &hasher, budget: &budget)
        case .rule(let r): hasher.combine(7); hasher.combine(r)
        case .token(let t): hasher.combine(8); hasher.combine(t)
        case .tokenBudget(let body, let maxTokens, let then):
            hasher.combine(9); hasher.combine(maxTokens)
            body.hashPrefix(into: &hasher, budget: &budget)
            then.hashPrefix(into: &hasher, budget: &budget)
        }
    }
}

/// An expression as a dictionary key hashed by its first nodes (`GrammarExpr.hashPrefix`), computed
/// once: a dictionary rehashes every key each time it grows, and the member-set rules' tables of values
/// grew through thousands of them (o19343).
struct PrefixHashedExpr: Hashable {
    let expr: GrammarExpr
    private let prefixHash: Int

    init(_ expr: GrammarExpr) {
        self.expr = expr
        var hasher = Hasher()
        expr.hashPrefix(into: &hasher)
        prefixHash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(prefixHash) }

    static func == (a: PrefixHashedExpr, b: PrefixHashedExpr) -> Bool { a.prefixHash == b.prefixHash && a.expr == b.expr }
}
