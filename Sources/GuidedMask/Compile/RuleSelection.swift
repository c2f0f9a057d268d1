import GuidedGrammar

/// Decides which rules stay rules (pushdown frames) and which are inlined into their callers' automata.
///
/// A rule must stay a rule when inlining it would never end: it is on a cycle of references (recursion).
/// Cutting every cycle once is enough, so the selection keeps the start rule plus the target of every
/// back edge of a depth-first search from it; everything else (JSON strings, numbers, whitespace, the
/// bodies of objects and arrays) is inlined, which makes the regular parts of the grammar plain automaton
/// states that the mask walk steps through with one table lookup per byte.
/// Large rules referenced from several places are kept too, so inlining never multiplies big automata.
struct RuleSelection {
    /// Per grammar rule: its index among kept rules, or -1 when inlined.
    var keptIndex: [Int]
    /// Grammar rule of each kept rule; `kept[0]` is the start rule.
    var kept: [Int]

    /// Expression nodes above which a rule referenced more than once stays a rule.
    static let shareThreshold = 400

    init(grammar: Grammar) throws(GrammarCompileError) {
        let n = grammar.rules.count
        var refs: [[Int]] = Array(repeating: [], count: n)
        var sizes: [Int] = Array(repeating: 0, count: n)
        for (i, rule) in grammar.rules.enumerated() {
            var out: [Int] = []
            sizes[i] = Self.collect(rule.body, into: &out)
            for r in out where r < 0 || r >= n { throw .undefinedRule(index: r, in: rule.name) }
            refs[i] = out
        }
        var keep = Array(repeating: false, count: n)
        keep[grammar.start.index] = true
        // Iterative DFS with colors: 0 white, 1 on the path, 2 done. Back edges mark their target.
        var color = Array(repeating: 0, count: n)
        var stack: [(rule: Int, next: Int)] = [(grammar.start.index, 0)]
        color[grammar.start.index] = 1
        var useCount = Array(repeating: 0, count: n)
        while !stack.isEmpty {
            let (r, k) = stack[stack.count - 1]
            if k < refs[r].count {
                stack[stack.count - 1].next += 1
                let t = refs[r][k]
                useCount[t] += 1
                switch color[t] {
                case 0: color[t] = 1; stack.append((t, 0))
                case 1: keep[t] = true
                default: break
                }
            } else {
                color[r] = 2
                stack.removeLast()
            }
        }
        // Inlined size of each reachable rule, in post-order of the (now acyclic) inlined-reference graph.
        var inlined = Array(repeating: -1, count: n)
        func size(_ r: Int) -> Int {
            if inlined[r] >= 0 { return inlined[r] }
            var total = sizes[r]
            for t in refs[r] where !keep[t] { total += size(t) }
            inlined[r] = min(total, 1 << 40)
            if !keep[r] && useCount[r] > 1 && inlined[r] > Self.shareThreshold {
                keep[r] = true
                inlined[r] = 1
                return 1
            }
            return inlined[r]
        }
        for r in 0..<n where color[r] == 2 { _ = size(r) }

        var keptIndex = Array(repeating: -1, count: n)
        var kept = [grammar.start.index]
        keptIndex[grammar.start.index] = 0
        for r in 0..<n where keep[r] && r != grammar.start.index && color[r] == 2 {
            keptIndex[r] = kept.count
            kept.append(r)
        }
        self.keptIndex = keptIndex
        self.kept = kept
    }

    /// Appends the rules `e` refers to and returns its node count.
    private static func collect(_ e: GrammarExpr, into out: inout [Int]) -> Int {
        switch e {
        case .empty, .nothing, .byteSet: return 1
        case .bytes(let b): return max(1, b.count)
        case .rule(let r): out.append(r.index); return 1
        case .sequence(let parts), .choice(let parts):
            var s = 1
            for p in parts { s += collect(p, into: &out) }
            return s
        case .repeat(let inner, let lo, let hi):
            let s = collect(inner, into: &out)
            return 1 + s * max(1, hi ?? (lo + 1))
        }
    }
}
