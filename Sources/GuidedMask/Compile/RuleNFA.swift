import GuidedGrammar

/// A Thompson NFA for one kept rule, with inlined rules expanded: edges are ε, a byte set (as a list of
/// byte classes), or a call of another kept rule. State 0 is the start, state 1 the final state.
struct RuleNFA {
    enum Label { case none, classes([Int]), call(Int) }
    var epsilon: [[Int32]] = [[], []]
    var label: [Label] = [.none, .none]
    var target: [Int32] = [-1, -1]

    private let grammar: Grammar
    private let selection: RuleSelection
    private let classes: ByteClasses
    private let ruleName: String
    private let maxStates: Int
    private var classCache: [ByteSet: [Int]] = [:]

    init(rule: Int, grammar: Grammar, selection: RuleSelection, classes: ByteClasses, maxStates: Int) throws(GrammarCompileError) {
        self.grammar = grammar
        self.selection = selection
        self.classes = classes
        self.ruleName = grammar.rules[rule].name
        self.maxStates = maxStates
        try build(grammar.rules[rule].body, from: 0, to: 1, rule: ruleName)
    }

    private mutating func newState() throws(GrammarCompileError) -> Int32 {
        guard epsilon.count < maxStates else { throw .automatonTooLarge(rule: ruleName, limit: maxStates) }
        epsilon.append([]); label.append(.none); target.append(-1)
        return Int32(epsilon.count - 1)
    }

    private mutating func classList(_ s: ByteSet) -> [Int] {
        if let c = classCache[s] { return c }
        var list: [Int] = []
        for c in 0..<classes.count where s.contains(classes.representative[c]) { list.append(c) }
        classCache[s] = list
        return list
    }

    private mutating func edge(_ from: Int32, _ l: Label, _ to: Int32) throws(GrammarCompileError) {
        // Labeled edges leave a fresh state so that each state has at most one label.
        let s = try newState()
        epsilon[Int(from)].append(s)
        label[Int(s)] = l
        target[Int(s)] = to
    }

    private mutating func build(_ e: GrammarExpr, from: Int32, to: Int32, rule: String) throws(GrammarCompileError) {
        switch e {
        case .empty:
            epsilon[Int(from)].append(to)
        case .nothing:
            break
        case .bytes(let bs):
            if bs.isEmpty { epsilon[Int(from)].append(to); return }
            var cur = from
            for (i, b) in bs.enumerated() {
                let next = i == bs.count - 1 ? to : try newState()
                try edge(cur, .classes([Int(classes.classOf[Int(b)])]), next)
                cur = next
            }
        case .byteSet(let s):
            if s.isEmpty { return }
            try edge(from, .classes(classList(s)), to)
        case .sequence(let parts):
            if parts.isEmpty { epsilon[Int(from)].append(to); return }
            var cur = from
            for (i, p) in parts.enumerated() {
                let next = i == parts.count - 1 ? to : try newState()
                try build(p, from: cur, to: next, rule: rule)
                cur = next
            }
        case .choice(let alts):
            for a in alts {
                // A fresh entry per alternative keeps alternatives that loop back to `from` apart.
                let s = try newState()
                epsilon[Int(from)].append(s)
                try build(a, from: s, to: to, rule: rule)
            }
        case .repeat(let inner, let lo, let hi):
            guard lo >= 0, hi.map({ $0 >= lo }) ?? true else { throw .invalidRepetition(rule: rule, min: lo, max: hi) }
            var cur = from
            for _ in 0..<lo {
                let next = try newState()
                try build(inner, from: cur, to: next, rule: rule)
                cur = next
            }
            if let hi {
                for _ in lo..<hi {
                    let next = try newState()
                    epsilon[Int(cur)].append(to)
                    try build(inner, from: cur, to: next, rule: rule)
                    cur = next
                }
                epsilon[Int(cur)].append(to)
            } else {
                // Loop on a fresh state so the body's ε-paths cannot leak into `from`'s other edges.
                let loop = try newState()
                epsilon[Int(cur)].append(loop)
                let back = try newState()
                try build(inner, from: loop, to: back, rule: rule)
                epsilon[Int(back)].append(loop)
                epsilon[Int(loop)].append(to)
            }
        case .rule(let r):
            let k = selection.keptIndex[r.index]
            if k >= 0 {
                try edge(from, .call(k), to)
            } else {
                let inner = grammar.rules[r.index]
                try build(inner.body, from: from, to: to, rule: inner.name)
            }
        }
    }
}
