import GuidedGrammar

/// The compiled form of a grammar: one deterministic automaton per kept rule over byte classes and
/// calls, numbered in one global state space.
///
/// A parse configuration is a stack of states: the top is where the current rule is; each state below
/// is where its caller resumes (already past the call edge). A byte moves the top state by `next`; a
/// state with call edges pushes the callee's start; an accepting top state pops. The states that cannot
/// reach acceptance are removed (trimmed), and so are calls of rules that derive no string, so every
/// stack that survives a byte can still be completed: "some stack survives" means exactly "the bytes so
/// far are a prefix of a sentence of the grammar".
struct GrammarAutomaton {
    static let accepting: UInt8 = 1
    static let hasBytes: UInt8 = 2
    static let hasCalls: UInt8 = 4

    var classes: ByteClasses
    /// `next[state * classCount + class]`: the next state, or -1.
    var next: [Int32] = []
    /// Per state: `accepting | hasBytes | hasCalls`.
    var flags: [UInt8] = []
    /// Calls of state q: `calls[2i]` = callee start state, `calls[2i+1]` = return state, for
    /// `i in callStart[q] ..< callStart[q + 1]`.
    var callStart: [Int32] = [0]
    var calls: [Int32] = []
    /// Start state of each kept rule; `ruleStart[0]` is the grammar's start.
    var ruleStart: [Int32] = []
    /// Rule (kept index) of each state, for diagnostics.
    var ruleOf: [Int32] = []
    var ruleNames: [String] = []

    var stateCount: Int { flags.count }
    var startState: Int32 { ruleStart[0] }

    init(grammar original: Grammar, limits: MaskLimits) throws(GrammarCompileError) {
        let grammar = DirectLeftRecursion.rewrite(original)
        let selection = try RuleSelection(grammar: grammar)
        classes = ByteClasses(grammar: grammar)
        ruleNames = selection.kept.map { grammar.rules[$0].name }
        let c = classes.count
        var rawCalls: [[(Int, Int32)]] = []   // per state: (callee kept rule, return state)
        var accept: [Bool] = []
        for (k, rule) in selection.kept.enumerated() {
            let nfa = try RuleNFA(rule: rule, grammar: grammar, selection: selection, classes: classes,
                                  maxStates: limits.maxAutomatonStates * 4)
            try determinize(nfa, rule: k, classCount: c, limit: limits.maxAutomatonStates,
                            rawCalls: &rawCalls, accept: &accept)
        }
        try finish(rawCalls: rawCalls, accept: accept, ruleCount: selection.kept.count)
    }

    /// Subset construction of one rule's NFA, appending its states to the global tables.
    private mutating func determinize(_ nfa: RuleNFA, rule: Int, classCount c: Int, limit: Int,
                                      rawCalls: inout [[(Int, Int32)]], accept: inout [Bool]) throws(GrammarCompileError) {
        let base = accept.count
        var ids: [[Int32]: Int32] = [:]
        var queue: [[Int32]] = []
        var mark = [Int](repeating: -1, count: nfa.epsilon.count)
        var generation = 0
        func closure(_ seeds: [Int32]) -> [Int32] {
            generation += 1
            var out: [Int32] = []
            var stack = seeds
            while let s = stack.popLast() {
                if mark[Int(s)] == generation { continue }
                mark[Int(s)] = generation
                out.append(s)
                stack.append(contentsOf: nfa.epsilon[Int(s)])
            }
            return out.sorted()
        }
        func intern(_ set: [Int32]) throws(GrammarCompileError) -> Int32 {
            if let id = ids[set] { return id }
            guard accept.count < limit else { throw .automatonTooLarge(rule: ruleNames[rule], limit: limit) }
            let id = Int32(accept.count)
            ids[set] = id
            queue.append(set)
            accept.append(set.contains(1))
            rawCalls.append([])
            ruleOf.append(Int32(rule))
            next.append(contentsOf: repeatElement(-1, count: c))
            return id
        }
        ruleStart.append(try intern(closure([0])))
        var done = 0
        var targets = [[Int32]](repeating: [], count: c)
        var memo: [[Int32]: Int32] = [:]
        while done < queue.count {
            let set = queue[done]
            let id = base + done
            done += 1
            for i in 0..<c { targets[i].removeAll(keepingCapacity: true) }
            var callTargets: [Int: [Int32]] = [:]
            for s in set {
                switch nfa.label[Int(s)] {
                case .none: break
                case .classes(let list): for cl in list { targets[cl].append(nfa.target[Int(s)]) }
                case .call(let k): callTargets[k, default: []].append(nfa.target[Int(s)])
                }
            }
            // Classes with the same raw targets (most of them, for UTF-8 ranges) share one closure.
            memo.removeAll(keepingCapacity: true)
            for cl in 0..<c where !targets[cl].isEmpty {
                if let known = memo[targets[cl]] { next[id * c + cl] = known; continue }
                let q = try intern(closure(targets[cl]))
                memo[targets[cl]] = q
                next[id * c + cl] = q
            }
            for (k, t) in callTargets.sorted(by: { $0.key < $1.key }) {
                rawCalls[id].append((k, try intern(closure(t))))
            }
        }
    }

    /// Trims dead states and rules, fills flags and call tables, and refuses left recursion.
    private mutating func finish(rawCalls: [[(Int, Int32)]], accept: [Bool], ruleCount: Int) throws(GrammarCompileError) {
        let n = accept.count, c = classes.count
        // live(q): q can reach acceptance; productive(k): live(start of k). Fixpoint by passes.
        var live = accept
        var productive = [Bool](repeating: false, count: ruleCount)
        var changed = true
        while changed {
            changed = false
            for k in 0..<ruleCount where !productive[k] && live[Int(ruleStart[k])] { productive[k] = true; changed = true }
            for q in stride(from: n - 1, through: 0, by: -1) where !live[q] {
                var ok = false
                for cl in 0..<c { let t = next[q * c + cl]; if t >= 0 && live[Int(t)] { ok = true; break } }
                if !ok { for (k, t) in rawCalls[q] where productive[k] && live[Int(t)] { ok = true; break } }
                if ok { live[q] = true; changed = true }
            }
        }
        guard live[Int(ruleStart[0])] else { throw .emptyLanguage }
        flags = [UInt8](repeating: 0, count: n)
        var newFlags = [UInt8](repeating: 0, count: n)
        calls = []
        callStart = [0]
        for q in 0..<n {
            var f: UInt8 = accept[q] ? Self.accepting : 0
            for cl in 0..<c {
                let t = next[q * c + cl]
                if t >= 0 && !live[Int(t)] { next[q * c + cl] = -1 } else if t >= 0 { f |= Self.hasBytes }
            }
            if live[q] {
                for (k, t) in rawCalls[q] where productive[k] && live[Int(t)] {
                    calls.append(ruleStart[k]); calls.append(t)
                    f |= Self.hasCalls
                }
            }
            if !live[q] { f = 0 }
            newFlags[q] = f
            callStart.append(Int32(calls.count / 2))
        }
        flags = newFlags
        try checkLeftRecursion(ruleCount: ruleCount)
    }

    /// A rule that can call itself again before any byte is consumed would push forever.
    private func checkLeftRecursion(ruleCount: Int) throws(GrammarCompileError) {
        // nullable(k): from start of k, an accepting state is reachable through calls of nullable rules.
        var nullable = [Bool](repeating: false, count: ruleCount)
        func zeroByteReach(_ k: Int) -> (states: [Int32], callees: Set<Int>) {
            var seen: Set<Int32> = [ruleStart[k]]
            var stack = [ruleStart[k]]
            var callees = Set<Int>()
            while let q = stack.popLast() {
                for i in Int(callStart[Int(q)])..<Int(callStart[Int(q) + 1]) {
                    let callee = Int(ruleOf[Int(calls[2 * i])])
                    callees.insert(callee)
                    let ret = calls[2 * i + 1]
                    if nullable[callee] && seen.insert(ret).inserted { stack.append(ret) }
                }
            }
            return (Array(seen), callees)
        }
        var changed = true
        while changed {
            changed = false
            for k in 0..<ruleCount where !nullable[k] {
                if zeroByteReach(k).states.contains(where: { flags[Int($0)] & Self.accepting != 0 }) {
                    nullable[k] = true; changed = true
                }
            }
        }
        let edges = (0..<ruleCount).map { zeroByteReach($0).callees.sorted() }
        var color = [UInt8](repeating: 0, count: ruleCount)
        for root in 0..<ruleCount where color[root] == 0 {
            var stack: [(Int, Int)] = [(root, 0)]
            color[root] = 1
            while let (k, i) = stack.last {
                if i < edges[k].count {
                    stack[stack.count - 1].1 += 1
                    let t = edges[k][i]
                    if color[t] == 1 { throw .leftRecursion(rule: ruleNames[t]) }
                    if color[t] == 0 { color[t] = 1; stack.append((t, 0)) }
                } else {
                    color[k] = 2
                    stack.removeLast()
                }
            }
        }
    }
}
