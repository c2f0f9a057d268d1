extension TextGrammar {
    /// The grammar with every subexpression nested deeper than `maxDepth` moved into a rule of its own
    /// (named after its rule, `…-part`). The same language; the text then nests parentheses at most
    /// `maxDepth` deep, where readers stop (ours at 500, llama.cpp's recursive descent on its stack). The
    /// schema compiler's automata can nest hundreds deep: a chain of optional digits, one per state.
    func shallow(maxDepth: Int = 64) -> TextGrammar {
        var g = self
        for r in rules.indices {
            let name = rules[r].name
            g.rules[r].body = g.hoisted(rules[r].body, depth: 0, maxDepth: maxDepth, owner: name)
        }
        return g
    }

    private mutating func hoisted(_ e: TextExpr, depth: Int, maxDepth: Int, owner: String) -> TextExpr {
        switch e {
        case .empty, .nothing, .text, .set, .rule, .token:
            return e
        case .sequence, .choice, .repeat:
            if depth >= maxDepth {
                let id = rules.count
                rules.append(Rule(name: owner + "-part", body: .nothing))
                rules[id].body = hoisted(e, depth: 0, maxDepth: maxDepth, owner: owner)
                return .rule(id)
            }
            switch e {
            case .sequence(let parts):
                return .sequence(parts.map { hoisted($0, depth: depth + 1, maxDepth: maxDepth, owner: owner) })
            case .choice(let parts):
                return .choice(parts.map { hoisted($0, depth: depth + 1, maxDepth: maxDepth, owner: owner) })
            case .repeat(let body, let lo, let hi):
                return .repeat(hoisted(body, depth: depth + 1, maxDepth: maxDepth, owner: owner), min: lo, max: hi)
            default:
                return e
            }
        }
    }
}
