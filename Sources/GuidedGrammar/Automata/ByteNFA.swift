/// A Thompson NFA over bytes, the intermediate step from a regular `GrammarExpr` to a `ByteDFA`.
///
/// Fragments are built "from" a given state and return their end state, which saves most ε-edges.
/// Every loop (`*`, `+`, unbounded repeat) gets a fresh loop state and every alternative a fresh
/// start, so a fragment never re-enters a state that a sibling fragment also leaves from.
struct ByteNFA {
    struct Edge {
        var set: ByteSet
        var target: Int32
    }

    var epsilon: [[Int32]] = []
    var edges: [[Edge]] = []
    var start: Int32 = 0
    var accept: Int32 = 0
    let limit: Int
    let grammar: Grammar?
    var activeRules: [RuleID] = []
    /// The limits of the whole construction, for the bodies of counted repeats built as DFAs
    /// (`ByteNFA+RepeatedBodies.swift`).
    let limits: AutomatonLimits
    /// Each counted repeat's body as its minimal DFA, built once (nil: not worth it or past a limit).
    var bodyDFAs: [GrammarExpr: ByteDFA?] = [:]
    /// One character of the alphabet every string of `expr` is made of (`JSONText.anyChar` for string
    /// contents), when the caller knows it: loops over it are found (`universalStates`).
    let universe: GrammarExpr?
    /// The loop states of unbounded repeats of `universe`.
    private var universeLoops: [Int32] = []
    /// States from which every string of the alphabet is accepted, lowest first: a loop over `universe`
    /// from which the end is reached by ε (what follows the loop may be empty). A pattern's search
    /// semantics ends with such a loop (`RegexLowering`, `sigmaStar`).
    private(set) var universalStates: [Int32] = []

    init(_ expr: GrammarExpr, grammar: Grammar?, limits: AutomatonLimits, universe: GrammarExpr? = nil) throws(AutomatonError) {
        self.limit = limits.maxNFAStates
        self.limits = limits
        self.grammar = grammar
        self.universe = universe
        start = try newState()
        accept = try build(expr, from: start)
        universalStates = universeLoops.filter(reachesAcceptByEpsilon).sorted()
    }

    private func reachesAcceptByEpsilon(_ s: Int32) -> Bool {
        var seen: Set<Int32> = [s]
        var stack = [s]
        while let x = stack.popLast() {
            if x == accept { return true }
            for t in epsilon[Int(x)] where seen.insert(t).inserted { stack.append(t) }
        }
        return false
    }

    var stateCount: Int { epsilon.count }

    /// An empty NFA, for builders that add states themselves.
    init(limit: Int) {
        self.limit = limit
        self.limits = AutomatonLimits(maxNFAStates: limit)
        self.grammar = nil
        self.universe = nil
    }

    /// An empty NFA for a part of another's expression: the same grammar, limits and rules in progress
    /// (a rule the part refers to recursively is still an error).
    init(limit: Int, grammar: Grammar?, activeRules: [RuleID], limits: AutomatonLimits) {
        self.limit = limit
        self.limits = limits
        self.grammar = grammar
        self.universe = nil
        self.activeRules = activeRules
    }

    mutating func newState() throws(AutomatonError) -> Int32 {
        guard epsilon.count < limit else { throw .tooManyNFAStates(limit: limit) }
        epsilon.append([])
        edges.append([])
        return Int32(epsilon.count - 1)
    }

    mutating func build(_ expr: GrammarExpr, from s: Int32) throws(AutomatonError) -> Int32 {
        switch expr {
        case .empty:
            return s
        case .nothing:
            return try newState()  // unreachable from s
        case .bytes(let bs):
            var cur = s
            for b in bs {
                let next = try newState()
                edges[Int(cur)].append(Edge(set: ByteSet([b]), target: next))
                cur = next
            }
            return cur
        case .byteSet(let set):
            let next = try newState()
            if !set.isEmpty { edges[Int(s)].append(Edge(set: set, target: next)) }
            return next
        case .sequence(let parts):
            var cur = s
            for p in parts { cur = try build(p, from: cur) }
            return cur
        case .choice(let alternatives):
            let end = try newState()
            for alt in alternatives {
                let a = try newState()
                epsilon[Int(s)].append(a)
                let e = try build(alt, from: a)
                epsilon[Int(e)].append(end)
            }
            return end
        case .repeat(let inner, let lo, let hi):
            // Many copies of a body: each a copy of its minimal DFA, built once where that is smaller
            // (`ByteNFA+RepeatedBodies`: counted words in JSON string text, 8,934 -> 1,801 states).
            let body = (hi ?? lo) >= Self.compiledBodyFrom ? try bodyDFA(inner) : nil
            func copy(_ from: Int32) throws(AutomatonError) -> Int32 {
                if let body { return try embed(body, from: from) }
                return try build(inner, from: from)
            }
            var cur = s
            for _ in 0..<lo { cur = try copy(cur) }
            if let hi {
                guard hi > lo else { return cur }
                let end = try newState()
                epsilon[Int(cur)].append(end)
                for _ in lo..<hi {
                    let a = try newState()
                    epsilon[Int(cur)].append(a)
                    cur = try copy(a)
                    epsilon[Int(cur)].append(end)
                }
                return end
            }
            let loop = try newState()
            if let universe, case .choice = inner, inner == universe { universeLoops.append(loop) }
            epsilon[Int(cur)].append(loop)
            let a = try newState()
            epsilon[Int(loop)].append(a)
            let e = try build(inner, from: a)
            epsilon[Int(e)].append(loop)
            return loop
        case .rule(let id):
            guard let grammar, id.index >= 0, id.index < grammar.rules.count else { throw .unresolvedRule(id) }
            guard !activeRules.contains(id) else { throw .recursiveRule(name: grammar[id].name) }
            activeRules.append(id)
            defer { activeRules.removeLast() }
            return try build(grammar[id].body, from: s)
        case .token(let r):
            throw .tokenLevel("the token \(r)")
        case .tokenBudget:
            throw .tokenLevel("a token budget")
        }
    }

    /// The byte classes: bytes that every edge set treats alike share a class.
    func byteClasses() -> (classOf: [UInt8], count: Int) {
        var classOf = [Int](repeating: 0, count: 256)
        var count = 1
        var seen = Set<ByteSet>()
        // (old class, in the set) -> new class; an array, not a dictionary: 256 lookups per set.
        var remap = [Int](repeating: -1, count: 512)
        for list in edges {
            for e in list where seen.insert(e.set).inserted {
                for k in 0..<(2 * count) { remap[k] = -1 }
                var next = 0
                for b in 0..<256 {
                    let key = classOf[b] * 2 + (e.set.contains(UInt8(b)) ? 1 : 0)
                    if remap[key] < 0 { remap[key] = next; next += 1 }
                    classOf[b] = remap[key]
                }
                count = next
            }
        }
        return (classOf.map { UInt8($0) }, count)
    }
}
