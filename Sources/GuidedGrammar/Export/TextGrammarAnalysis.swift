/// Fixpoint analyses of a `TextGrammar`: productive rules (deriving some finite text), reachable rules,
/// nullable rules and left recursion (which llama.cpp refuses).
enum TextGrammarAnalysis {
    /// Per rule, whether it derives at least one finite text.
    static func productiveRules(_ g: TextGrammar) -> [Bool] {
        var productive = [Bool](repeating: false, count: g.rules.count)
        var changed = true
        while changed {
            changed = false
            for (i, r) in g.rules.enumerated() where !productive[i] && derives(r.body, productive) {
                productive[i] = true
                changed = true
            }
        }
        return productive
    }

    static func derives(_ e: TextExpr, _ productive: [Bool]) -> Bool {
        switch e {
        case .empty, .text, .set, .token: return true
        case .nothing: return false
        case .rule(let r): return productive[r]
        case .sequence(let parts): return parts.allSatisfy { derives($0, productive) }
        case .choice(let parts): return parts.contains { derives($0, productive) }
        case .repeat(let body, let lo, _): return lo == 0 || derives(body, productive)
        }
    }

    /// The rules the start reaches, renumbered in first-reached order (the start first).
    static func reachable(_ g: TextGrammar) -> TextGrammar {
        var order = [g.start]
        var index = [g.start: 0]
        var i = 0
        while i < order.count {
            g.rules[order[i]].body.forEachRule { r in
                if index[r] == nil { index[r] = order.count; order.append(r) }
            }
            i += 1
        }
        let rules = order.map { old in
            TextGrammar.Rule(name: g.rules[old].name, body: g.rules[old].body.mapRules { .rule(index[$0]!) })
        }
        return TextGrammar(rules: rules, start: 0)
    }

    /// Per rule, whether it derives the empty text.
    static func nullableRules(_ g: TextGrammar) -> [Bool] {
        var nullable = [Bool](repeating: false, count: g.rules.count)
        var changed = true
        while changed {
            changed = false
            for (i, r) in g.rules.enumerated() where !nullable[i] && isNullable(r.body, nullable) {
                nullable[i] = true
                changed = true
            }
        }
        return nullable
    }

    static func isNullable(_ e: TextExpr, _ nullable: [Bool]) -> Bool {
        switch e {
        case .empty: return true
        case .nothing, .text, .set, .token: return false
        case .rule(let r): return nullable[r]
        case .sequence(let parts): return parts.allSatisfy { isNullable($0, nullable) }
        case .choice(let parts): return parts.contains { isNullable($0, nullable) }
        case .repeat(let body, let lo, _): return lo == 0 || isNullable(body, nullable)
        }
    }

    /// A rule that can call itself before reading any text, or nil. llama.cpp's parser expands rules
    /// depth-first on a stack and refuses such grammars.
    static func leftRecursiveRule(_ g: TextGrammar) -> Int? {
        let nullable = nullableRules(g)
        var first = [[Int]](repeating: [], count: g.rules.count)
        for (i, r) in g.rules.enumerated() { leftCalls(r.body, nullable, into: &first[i]) }
        // A cycle in the "may call first" graph (iterative DFS with colours).
        var colour = [UInt8](repeating: 0, count: g.rules.count)
        for root in g.rules.indices where colour[root] == 0 {
            var stack: [(Int, Int)] = [(root, 0)]
            colour[root] = 1
            while let (r, i) = stack.popLast() {
                if i < first[r].count {
                    stack.append((r, i + 1))
                    let t = first[r][i]
                    if colour[t] == 1 { return t }
                    if colour[t] == 0 { colour[t] = 1; stack.append((t, 0)) }
                } else {
                    colour[r] = 2
                }
            }
        }
        return nil
    }

    /// The rules `e` may call before reading any text.
    static func leftCalls(_ e: TextExpr, _ nullable: [Bool], into out: inout [Int]) {
        switch e {
        case .empty, .nothing, .text, .set, .token: break
        case .rule(let r): out.append(r)
        case .choice(let parts): for p in parts { leftCalls(p, nullable, into: &out) }
        case .repeat(let body, _, _): leftCalls(body, nullable, into: &out)
        case .sequence(let parts):
            for p in parts {
                leftCalls(p, nullable, into: &out)
                if !isNullable(p, nullable) { break }
            }
        }
    }
}
