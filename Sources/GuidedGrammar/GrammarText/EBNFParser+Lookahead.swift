/// Lookahead assertions of XGrammar's EBNF: kept only when the grammar implies them.
extension EBNFParserState {
    /// Each assertion must be implied: every use of its rule sits in a sequence and is followed there by
    /// exactly the asserted elements.
    func checkLookaheads() throws(GrammarSyntaxError) {
        for (rule, assertion, at) in lookaheads {
            let wanted = Self.atoms(assertion)
            var uses = 0
            var implied = !wanted.isEmpty && !Self.containsChoice(assertion)
            for r in grammar.rules where implied {
                Self.visitUses(of: rule, in: r.body, followedBy: nil) { rest in
                    uses += 1
                    if let rest, Array(rest.prefix(wanted.count)) == wanted { return }
                    implied = false
                }
            }
            if !implied || uses == 0 {
                throw error("lookahead assertion on rule '\(grammar[rule].name)' is not supported: only an assertion that every use "
                    + "of the rule is followed by exactly these elements can be kept (any other restricts the language)", at: at)
            }
        }
    }

    static func containsChoice(_ e: GrammarExpr) -> Bool {
        if case .choice = e { return true }
        return false
    }

    /// Calls `visit` for each reference to `rule` in `e`, with the atoms that follow it in its sequence
    /// (nil where nothing in the same sequence follows it).
    static func visitUses(of rule: RuleID, in e: GrammarExpr, followedBy: [GrammarExpr]?, _ visit: ([GrammarExpr]?) -> Void) {
        switch e {
        case .rule(let r) where r == rule: visit(followedBy)
        case .sequence(let parts):
            for (k, p) in parts.enumerated() {
                let rest = parts[(k + 1)...].flatMap { atoms($0) }
                visitUses(of: rule, in: p, followedBy: k + 1 < parts.count ? rest : nil, visit)
            }
        case .choice(let parts): for p in parts { visitUses(of: rule, in: p, followedBy: nil, visit) }
        case .repeat(let body, _, _): visitUses(of: rule, in: body, followedBy: nil, visit)
        default: break
        }
    }

    /// A sequence's parts with literals split into single bytes.
    static func atoms(_ e: GrammarExpr) -> [GrammarExpr] {
        switch e {
        case .sequence(let parts): return parts.flatMap { atoms($0) }
        case .bytes(let b): return b.map { .bytes([$0]) }
        case .empty: return []
        default: return [e]
        }
    }
}
