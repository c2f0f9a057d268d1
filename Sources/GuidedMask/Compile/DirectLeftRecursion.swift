import GuidedGrammar

/// Rewrites direct left recursion, which a pushdown engine cannot run as written, into repetition with
/// the same language: `A ::= A α1 | A α2 | β1 | β2` becomes `A ::= (β1 | β2) (α1 | α2)*`.
/// This covers textbook expression grammars (`expr ::= expr "+" term | term`). Indirect left recursion
/// (`A ::= B x`, `B ::= A y`) and recursion hidden behind a nullable prefix stay as they are and are
/// refused by the compiler with `GrammarCompileError.leftRecursion`.
enum DirectLeftRecursion {
    static func rewrite(_ grammar: Grammar) -> Grammar {
        var g = grammar
        for (index, rule) in grammar.rules.enumerated() {
            let id = RuleID(index)
            let alternatives: [GrammarExpr]
            if case .choice(let alts) = rule.body { alternatives = alts } else { alternatives = [rule.body] }
            var bases: [GrammarExpr] = []
            var tails: [GrammarExpr] = []
            for alt in alternatives {
                if let tail = leftTail(alt, of: id) {
                    if let tail { tails.append(tail) }   // `A ::= A` alone adds nothing
                } else {
                    bases.append(alt)
                }
            }
            if tails.isEmpty { continue }
            let base: GrammarExpr = bases.count == 1 ? bases[0] : .choice(bases)
            let tail: GrammarExpr = tails.count == 1 ? tails[0] : .choice(tails)
            g.define(id, as: .sequence([base, .star(tail)]))
        }
        return g
    }

    /// If `e` is `A α`, returns `.some(α)` (`.some(nil)` for `A` alone); otherwise nil.
    private static func leftTail(_ e: GrammarExpr, of id: RuleID) -> GrammarExpr?? {
        switch e {
        case .rule(let r) where r == id:
            return .some(nil)
        case .sequence(let parts):
            guard let first = parts.first, let inner = leftTail(first, of: id) else { return nil }
            var rest = Array(parts.dropFirst())
            if let innerTail = inner { rest.insert(innerTail, at: 0) }
            if rest.isEmpty { return .some(nil) }
            return .some(rest.count == 1 ? rest[0] : .sequence(rest))
        default:
            return nil
        }
    }
}
