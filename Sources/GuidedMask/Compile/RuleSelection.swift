import GuidedGrammar

/// Decides which rules stay rules (pushdown frames) and which are inlined into their callers' automata.
///
/// A rule must stay a rule when inlining it would never end: it is on a cycle of references (recursion).
/// Cutting every cycle once is enough, so the selection keeps the start rule plus the target of every
/// back edge of a depth-first search from it; everything else (JSON strings, numbers, whitespace, the
/// bodies of objects and arrays) is inlined, which makes the regular parts of the grammar plain automaton
/// states that the mask walk steps through with one table lookup per byte.
/// Large rules referenced from several places are kept too, so inlining never multiplies big automata.
/// Cycles made only of tail references (right-linear groups, see `rightLinearGroups`) are regular and
/// are not cut: their rules are built as shared copies whose cycles close with ε-edges.
struct RuleSelection {
    /// Per grammar rule: its index among kept rules, or -1 when inlined.
    var keptIndex: [Int]
    /// Grammar rule of each kept rule; `kept[0]` is the start rule.
    var kept: [Int]
    /// Per grammar rule: some rule body refers to it more than once in tail position, so an inlined copy
    /// is built once per end state and shared (`NFABuilder`).
    var tailShared: [Bool]
    /// Inlining every rule that is not recursive or big would pass `inlinedNodeBudget`, so rules with
    /// many copies had to stay rules (see `GrammarNFA.init`, which then splits long repeats into blocks).
    var inliningOverBudget = false
    /// The most copies any repeat of a single rule asks for (`char{0,6000}`: 6,000), so that
    /// `GrammarNFA` knows whether `LongRepeatBlocks` has anything to split without walking the grammar.
    var longestRuleRepeat = 0

    /// Expression nodes above which a rule referenced more than once stays a rule.
    static let shareThreshold = 400
    /// A rule of more than `smallCopiedRule` nodes whose inlined copies would add up to more than this
    /// stays a rule whatever the budget: `maxItems: 1000` over a 200-node item object was 400,000 NFA
    /// states (18 ms to build) for one call per item. (Smaller rules under long repeats, characters of
    /// a `maxLength`, are `LongRepeatBlocks`' business: a call per character would slow every mask.)
    static let copiesKeepThreshold = 100_000
    static let smallCopiedRule = 128
    /// Expression nodes that all inlined copies of a rule may add up to before it stays a rule, used only
    /// when inlining every copy would pass `inlinedNodeBudget`: calls slow masks down (a character rule
    /// called under a length bound makes every state of the string need the general walk), so they are
    /// kept only to stay under the NFA limit (`MaskLimits.maxNFAStates`).
    static let copiesThreshold = 600_000
    /// Expression nodes of all kept rules with every copy inlined above which `copiesThreshold` applies.
    static let inlinedNodeBudget = 900_000

    /// The byte sets, bytes, tokens and budgets of every rule, gathered on the same walk.
    private(set) var terminals = ByteClasses.Terminals()

    init(grammar: Grammar) throws(GrammarCompileError) {
        let n = grammar.rules.count
        var refs = References()
        var sizes: [Int] = Array(repeating: 0, count: n)
        var tailShared = Array(repeating: false, count: n)
        // tailSeen[t] == i: rule i already refers to t in tail position.
        var tailSeen = Array(repeating: -1, count: n)
        for (i, rule) in grammar.rules.enumerated() {
            let first = refs.target.count
            sizes[i] = Self.collect(rule.body, copies: 1, tail: true, into: &refs, rule: i, tailSeen: &tailSeen,
                                    shared: &tailShared, longest: &longestRuleRepeat, terminals: &terminals)
            for r in refs.target[first...] where r < 0 || r >= n { throw .undefinedRule(index: r, in: rule.name) }
            refs.start.append(refs.target.count)
        }
        // Member-set rules and the rules they guard must stay rules: their calls carry the guards. So
        // must arrays of distinct strings and strings of counted length: the matcher finds them by the
        // rule of a frame.
        let pinned = grammar.rules.map { $0.hasMemberGuard || $0.distinctStringItems || $0.countedLength != nil }
        let group = Self.rightLinearGroups(refs: refs, sizes: sizes, pinned: pinned, shared: grammar.rules.map(\.shared))
        for r in 0..<n where group[r] >= 0 { tailShared[r] = true }
        var keep = pinned
        keep[grammar.start.index] = true
        // Iterative DFS with colors: 0 white, 1 on the path, 2 done. Back edges mark their target.
        var color = Array(repeating: 0, count: n)
        var stack: [(rule: Int, next: Int)] = [(grammar.start.index, 0)]
        color[grammar.start.index] = 1
        var useCount = Array(repeating: 0, count: n)
        while !stack.isEmpty {
            let (r, k) = stack[stack.count - 1]
            if k < refs.count(of: r) {
                stack[stack.count - 1].next += 1
                let e = refs.start[r] + k
                let t = refs.target[e]
                useCount[t] = min(useCount[t] + refs.copies[e], 1 << 40)
                switch color[t] {
                case 0: color[t] = 1; stack.append((t, 0))
                case 1: if group[t] < 0 { keep[t] = true }
                default: break
                }
            } else {
                color[r] = 2
                stack.removeLast()
            }
        }
        // Calls of tiny rules make masks slow, so first try keeping rules for their size only; keep the
        // many-copies rules too when that would make the automaton too big.
        let shared = grammar.rules.map(\.shared)
        var selected = Self.shareRules(keep: keep, reachable: color.map { $0 == 2 }, sizes: sizes, refs: refs, shared: shared,
                                       useCount: useCount, group: group, copiesThreshold: Int.max)
        if selected.total > Self.inlinedNodeBudget {
            inliningOverBudget = true
            selected = Self.shareRules(keep: keep, reachable: color.map { $0 == 2 }, sizes: sizes, refs: refs, shared: shared,
                                       useCount: useCount, group: group, copiesThreshold: Self.copiesThreshold)
        }
        keep = selected.keep

        var keptIndex = Array(repeating: -1, count: n)
        var kept = [grammar.start.index]
        keptIndex[grammar.start.index] = 0
        for r in 0..<n where keep[r] && r != grammar.start.index && color[r] == 2 {
            keptIndex[r] = kept.count
            kept.append(r)
        }
        self.keptIndex = keptIndex
        self.kept = kept
        self.tailShared = tailShared
    }

    /// The references of every rule's body in one set of arrays, rule by rule (an array or three per rule
    /// were allocated and freed with each selection, a twentieth of a large schema's automaton).
    struct References {
        /// Rule r's references are `start[r] ..< start[r + 1]` of the arrays below.
        var start: [Int] = [0]
        var target: [Int] = []
        /// Copies of each reference once inlined: a reference inside `x{0,255}` is built 255 times.
        var copies: [Int] = []
        /// Each reference is in tail position (nothing of the referring body follows it).
        var tail: [Bool] = []

        var ruleCount: Int { start.count - 1 }
        func range(of r: Int) -> Range<Int> { start[r] ..< start[r + 1] }
        func count(of r: Int) -> Int { start[r + 1] - start[r] }
    }

    /// Marks as kept the rules that ask to be shared (`GrammarRule.shared`), and the rules referenced
    /// more than once whose inlined size, or whose copies together, pass the thresholds; returns the
    /// marks and the inlined node count of every kept rule together.
    private static func shareRules(keep initial: [Bool], reachable: [Bool], sizes: [Int], refs: References, shared: [Bool],
                                   useCount: [Int], group: [Int], copiesThreshold: Int) -> (keep: [Bool], total: Int) {
        var keep = initial
        let n = keep.count
        // Inlined size of each reachable rule, in post-order of the (now acyclic apart from right-linear
        // groups) inlined-reference graph. A group is inlined as a whole: each of its rules costs the
        // whole group, its references inside the group are ε-edges.
        var inlined = Array(repeating: -1, count: n)
        var groupSize: [Int: Int] = [:]
        var membersOf: [Int: [Int]] = [:]
        for r in 0..<n where group[r] >= 0 { membersOf[group[r], default: []].append(r) }
        func size(_ r: Int) -> Int {
            if inlined[r] >= 0 { return inlined[r] }
            let g = group[r]
            if g >= 0 {
                if let known = groupSize[g] { return known }
                groupSize[g] = 1 << 40   // (a cycle back into the group while summing it)
                var total = 0
                for m in membersOf[g]! {
                    total = min(total + sizes[m], 1 << 40)
                    for e in refs.range(of: m) where group[refs.target[e]] != g && !keep[refs.target[e]] {
                        total = min(total + min(refs.copies[e], 1 << 20) * size(refs.target[e]), 1 << 40)
                    }
                }
                groupSize[g] = total
                return total
            }
            var total = sizes[r]
            for e in refs.range(of: r) where !keep[refs.target[e]] {
                total = min(total + min(refs.copies[e], 1 << 20) * size(refs.target[e]), 1 << 40)
            }
            inlined[r] = min(total, 1 << 40)
            // Shared when big, or when its copies together are big (a character rule under a length bound).
            let copiesTotal = useCount[r] > 0 && inlined[r] > (1 << 40) / useCount[r] ? 1 << 40 : useCount[r] * inlined[r]
            let manyBigCopies = inlined[r] > Self.smallCopiedRule && copiesTotal > Self.copiesKeepThreshold
            if !keep[r] && (shared[r] || useCount[r] > 1 && (inlined[r] > Self.shareThreshold || copiesTotal > copiesThreshold || manyBigCopies)) {
                keep[r] = true
                inlined[r] = 1
                return 1
            }
            return inlined[r]
        }
        for r in 0..<n where reachable[r] { _ = size(r) }
        var total = 0
        for r in 0..<n where reachable[r] && keep[r] {
            // A kept rule's own automaton: its body with the rules it inlines (size(r) returned 1 for it).
            var body = sizes[r]
            for e in refs.range(of: r) where !keep[refs.target[e]] {
                body = min(body + min(refs.copies[e], 1 << 20) * size(refs.target[e]), 1 << 40)
            }
            total = min(total + body, 1 << 40)
        }
        return (keep, total)
    }

    /// Rules that refer to each other in cycles only through tail references (right-linear: the rule
    /// per state that a large string automaton becomes) describe a regular language. They need not
    /// stay rules: `NFABuilder` builds each once per end state and closes the cycles with ε-edges into
    /// the copies already begun. Per rule: its group number, or -1. Groups over `rightLinearNodes`
    /// expression nodes or `rightLinearRules` rules are left as rules (the builder recurses once per
    /// rule of a chain).
    static let rightLinearNodes = 200_000
    static let rightLinearRules = 8_192

    private static func rightLinearGroups(refs: References, sizes: [Int], pinned: [Bool], shared: [Bool]) -> [Int] {
        let n = refs.ruleCount
        // Tarjan's strongly connected components, iteratively.
        var index = Array(repeating: -1, count: n), low = Array(repeating: 0, count: n)
        var onStack = Array(repeating: false, count: n)
        var component = Array(repeating: -1, count: n)
        var sccStack: [Int] = []
        var counter = 0, components = 0
        for root in 0..<n where index[root] < 0 {
            var work: [(rule: Int, next: Int)] = [(root, 0)]
            index[root] = counter; low[root] = counter; counter += 1
            sccStack.append(root); onStack[root] = true
            while let (r, k) = work.last {
                if k < refs.count(of: r) {
                    work[work.count - 1].next += 1
                    let t = refs.target[refs.start[r] + k]
                    if index[t] < 0 {
                        index[t] = counter; low[t] = counter; counter += 1
                        sccStack.append(t); onStack[t] = true
                        work.append((t, 0))
                    } else if onStack[t] {
                        low[r] = min(low[r], index[t])
                    }
                } else {
                    work.removeLast()
                    if let (p, _) = work.last { low[p] = min(low[p], low[r]) }
                    if low[r] == index[r] {
                        while let m = sccStack.popLast() {
                            onStack[m] = false
                            component[m] = components
                            if m == r { break }
                        }
                        components += 1
                    }
                }
            }
        }
        // A component qualifies when it has a cycle, every reference inside it is a tail reference,
        // and it is not too big.
        var cyclic = Array(repeating: false, count: components)
        var linear = Array(repeating: true, count: components)
        var nodes = Array(repeating: 0, count: components)
        var members = Array(repeating: 0, count: components)
        for r in 0..<n {
            let c = component[r]
            nodes[c] = nodes[c].saturatingAdd(sizes[r])
            members[c] += 1
            for e in refs.range(of: r) where component[refs.target[e]] == c {
                cyclic[c] = true
                if !refs.tail[e] { linear[c] = false }
            }
        }
        var pinnedComponent = [Bool](repeating: false, count: components)
        for r in 0..<n where pinned[r] { pinnedComponent[component[r]] = true }
        var group = (0..<n).map { r in
            let c = component[r]
            return cyclic[c] && linear[c] && !pinnedComponent[c] && nodes[c] <= rightLinearNodes && members[c] <= rightLinearRules ? c : -1
        }
        acyclicTailGroups(refs: refs, sizes: sizes, pinned: zip(pinned, shared).map { $0 || $1 }, firstGroup: components, into: &group)
        return group
    }

    /// Acyclic tail chains: a rule referred to only in tail position is entered with the end state of
    /// the rule that refers to it, so rules linked only that way share one copy per end state too. The
    /// states of a string automaton with a length bound become such a chain (`ByteDFA.grammarExpr`
    /// with the closing quote after it): one rule per state, each reached from several others. Copied
    /// per reference, the chain's size estimate doubled with every such state and its rules stayed
    /// calls, so no token slice applied inside the string (a full trie walk per position, 10-20 ms).
    /// Rules in no cyclic group and referred to only in tail position are joined along the tail
    /// references between them; a joined set becomes a group under the same bounds. (A rule referred
    /// to elsewhere stays out: group members are never kept, and inlined it would bring the group
    /// into every place that refers to it. So does a rule that asks to be kept, `GrammarRule.shared`:
    /// a member's value, called in tail position by the member's rule, is one rule for every member
    /// that writes it only if no group takes it in.)
    private static func acyclicTailGroups(refs: References, sizes: [Int], pinned: [Bool], firstGroup: Int, into group: inout [Int]) {
        let n = refs.ruleCount
        var onlyTail = pinned.map { !$0 }
        for e in refs.target.indices where !refs.tail[e] { onlyTail[refs.target[e]] = false }
        var parent = Array(0..<n)
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        var joined = false
        for r in 0..<n where group[r] < 0 && onlyTail[r] {
            for e in refs.range(of: r) where refs.tail[e] && refs.target[e] != r && onlyTail[refs.target[e]] && group[refs.target[e]] < 0 {
                let a = find(r), b = find(refs.target[e])
                if a != b { parent[b] = a; joined = true }
            }
        }
        guard joined else { return }
        var nodes = [Int](repeating: 0, count: n), members = [Int](repeating: 0, count: n)
        for r in 0..<n where group[r] < 0 && onlyTail[r] {
            let c = find(r)
            nodes[c] = nodes[c].saturatingAdd(sizes[r])
            members[c] += 1
        }
        for r in 0..<n where group[r] < 0 && onlyTail[r] {
            let c = find(r)
            if members[c] > 1 && nodes[c] <= rightLinearNodes && members[c] <= rightLinearRules { group[r] = firstGroup + c }
        }
    }

    /// Appends the rules `e` refers to, each with how many copies inlining makes (`copies` per copy of
    /// `e`), and returns its node count. References in tail position (`tail`: nothing of the rule body
    /// follows them) all end where the body ends, so `NFABuilder` builds one copy per target and body and
    /// jumps into it from each of them (`tailSeen`): a repeated one is recorded with 0 copies. That
    /// keeps declared-order objects linear: member k's rule refers to member k + 1's twice, once after
    /// the member and once when it is absent.
    private static func collect(_ e: GrammarExpr, copies: Int, tail: Bool, into out: inout References, rule: Int,
                                tailSeen: inout [Int], shared: inout [Bool], longest: inout Int,
                                terminals: inout ByteClasses.Terminals) -> Int {
        switch e {
        case .empty, .nothing: return 1
        case .byteSet(let s):
            terminals.add(set: s)
            return 1
        case .token(let r):
            terminals.add(token: r)
            return 1
        case .bytes(let b):
            terminals.add(bytes: b)
            return max(1, b.count)
        case .tokenBudget(let body, let n, let then):
            terminals.add(budget: n)
            // The body's states are built in one range and inlined (a budget's body calls no kept rule).
            let b = collect(body, copies: copies, tail: tail, into: &out, rule: rule, tailSeen: &tailSeen,
                            shared: &shared, longest: &longest, terminals: &terminals)
            let t = collect(then, copies: copies, tail: tail, into: &out, rule: rule, tailSeen: &tailSeen,
                            shared: &shared, longest: &longest, terminals: &terminals)
            return b.saturatingAdd(t).saturatingAdd(1)
        case .rule(let r):
            var made = copies
            if tail && r.index >= 0 && r.index < tailSeen.count {
                if tailSeen[r.index] == rule {
                    shared[r.index] = true
                    made = 0
                } else {
                    tailSeen[r.index] = rule
                }
            }
            out.target.append(r.index)
            out.copies.append(made)
            out.tail.append(tail)
            return 1
        case .sequence(let parts):
            var s = 1
            for (i, p) in parts.enumerated() {
                s = s.saturatingAdd(collect(p, copies: copies, tail: tail && i == parts.count - 1, into: &out, rule: rule,
                                         tailSeen: &tailSeen, shared: &shared, longest: &longest, terminals: &terminals))
            }
            return s
        case .choice(let parts):
            var s = 1
            for p in parts {
                s = s.saturatingAdd(collect(p, copies: copies, tail: tail, into: &out, rule: rule,
                                            tailSeen: &tailSeen, shared: &shared, longest: &longest, terminals: &terminals))
            }
            return s
        case .repeat(let inner, let lo, let hi):
            let times = max(1, hi ?? lo.saturatingAdd(1))
            if case .rule = inner { longest = max(longest, lo, hi ?? 0) }
            let s = collect(inner, copies: min(copies.saturatingMultiply(times), 1 << 20), tail: false, into: &out, rule: rule,
                            tailSeen: &tailSeen, shared: &shared, longest: &longest, terminals: &terminals)
            return s.saturatingMultiply(times).saturatingAdd(1)
        }
    }
}

extension Int {
    /// Node counts are estimates compared with limits: past `Int.max / 4` they only need to stay large, so
    /// a bound like `maxItems: 1e80` (clamped to `Int.max`) saturates instead of trapping.
    func saturatingAdd(_ other: Int) -> Int {
        let (r, o) = addingReportingOverflow(other)
        return o || r > Int.max / 4 ? Int.max / 4 : r
    }

    func saturatingMultiply(_ other: Int) -> Int {
        let (r, o) = multipliedReportingOverflow(by: other)
        return o || r > Int.max / 4 ? Int.max / 4 : r
    }
}
