import GuidedGrammar

/// The Thompson NFAs of all kept rules in one numbering, flattened into arrays, with the facts the lazy
/// subset construction needs: which states can still reach their rule's end (`live`), which rules
/// derive some string (`productive`).
///
/// Compiling a grammar builds only this (linear in the grammar's size). Deterministic states are made
/// from it on demand, when a matcher first reads a byte in them (`GrammarAutomaton`).
struct GrammarNFA {
    static let labelNone: UInt8 = 0
    static let labelClasses: UInt8 = 1
    static let labelCall: UInt8 = 2

    /// ε-edges of state s: `epsilonTargets[epsilonStart[s] ..< epsilonStart[s + 1]]`.
    var epsilonStart: [Int32] = [0]
    var epsilonTargets: [Int32] = []
    /// Per state: `labelNone`, `labelClasses` or `labelCall`.
    var label: [UInt8] = []
    /// Classes of a byte edge: `classList[labelLow[s] ..< labelHigh[s]]`.
    var labelLow: [Int32] = []
    var labelHigh: [Int32] = []
    var classList: [UInt16] = []
    /// Callee (kept rule index) of a call edge, else -1.
    var callee: [Int32] = []
    /// Target of the labelled edge, else -1.
    var target: [Int32] = []
    /// True for the final state of a rule (reaching it pops the rule).
    var isFinal: [Bool] = []
    /// The cut states of token budgets (`NFABuilder.buildBudget`).
    var isCut: [Bool] = []
    /// Start and final state of each kept rule.
    var ruleStart: [Int32] = []
    var ruleFinal: [Int32] = []
    var ruleNames: [String] = []
    /// Member-set attributes of each kept rule (`GrammarRule.memberBit`, `requiresMembers`, `tracksMembers`,
    /// `memberDependencies`), and `requiresMembersBeyond` (bits of 64 and above, ascending).
    var ruleMemberBit: [Int16] = []
    var ruleRequires: [UInt64] = []
    var ruleRequiresBeyond: [[Int16]] = []
    /// The most member bits past the first 64 that one member-set rule has (0 when none has more than 64):
    /// the words of an automaton state's `MemberBitsBeyond`.
    var beyondWords = 0
    var ruleDependencies: [[MemberDependency]] = []
    var ruleTracks: [Bool] = []
    /// `GrammarRule.minimumMembers`, `memberCounts` and `countsAsUndeclared` of each kept rule.
    var ruleMinimum: [Int] = []
    var ruleCounts: [MemberCounts?] = []
    var ruleCountsUndeclared: [Bool] = []
    /// Per kept rule: an array of distinct strings (`GrammarRule.distinctStringItems`).
    var ruleDistinctItems: [Bool] = []
    /// Per kept rule: items compared as JSON values (`GrammarRule.distinctByValue`), and `0` decided
    /// at its digit (`distinctZeroIsDecided`).
    var ruleDistinctByValue: [Bool] = []
    var ruleDistinctZero: [Bool] = []
    /// Per kept rule: its listed values (`GrammarRule.distinctValues`) and `distinctMinimum`.
    var ruleDistinctValues: [[[UInt8]]?] = []
    var ruleDistinctLanguage: [ByteDFA?] = []
    var ruleDistinctMinimum: [Int] = []
    /// Per kept rule: the counted length of the string it is part of (`GrammarRule.countedLength`).
    var ruleCountedLength: [CountedLength?] = []
    /// Per member-set rule with counts: how many declared members some usable call writes, and whether
    /// some usable call writes an undeclared member (set by `dropUnwritableClosings`).
    private var countedWritable: [Int] = []
    private var countedUndeclared: [Bool] = []
    /// The counts with what each rule's usable calls write.
    private(set) var countedRules = CountedRules(counts: [], writable: [], undeclared: [])
    /// Some kept rule tracks member sets (else every automaton state's member set is empty).
    var hasMemberSets = false
    /// What the states of member-set rules can reach (nil when no rule tracks member sets).
    var memberFutures: MemberFutures? = nil
    /// `live[s]`: from s, the end of its rule is reachable (reading bytes and calling productive rules).
    var live: [Bool] = []
    /// `productive[k]`: rule k derives at least one string.
    var productive: [Bool] = []

    var stateCount: Int { label.count }
    /// The byte classes (and symbol classes) of the grammar's terminals.
    let classes: ByteClasses

    init(grammar original: Grammar, limits: MaskLimits) throws(GrammarCompileError) {
        var grammar = DirectLeftRecursion.rewrite(original)
        var selection = try RuleSelection(grammar: grammar)
        // Blocking long repeats below adds rules of existing terminals only: the first selection's do.
        let classes = ByteClasses(terminals: selection.terminals)
        self.classes = classes
        // Long repeats of a small rule (huge `maxLength`s) are split into blocks (`LongRepeatBlocks`):
        // the character is inlined in a block rule called once per block. Past `alwaysBlocked` copies
        // always: fully inlined, a `maxLength: 6000` string alone is 144,000 NFA states, most of a
        // Snowplow schema's 20 ms compile (blocked: 8 ms for the whole schema), while its masks pay only
        // at block ends. Past `longRepeat` copies only when inlining every copy would pass the budget
        // (the rule would otherwise become a call per character): inlined whole, a repeat's states are
        // plain byte states everywhere, while blocks make the last characters before each block's end
        // stack-dependent for the tokens that cross it.
        var threshold = selection.inliningOverBudget ? LongRepeatBlocks.longRepeat : LongRepeatBlocks.alwaysBlocked
        while selection.longestRuleRepeat > threshold {
            let blocked = LongRepeatBlocks.rewrite(grammar, longerThan: threshold)
            guard blocked.rules.count != grammar.rules.count else { break }
            grammar = blocked
            selection = try RuleSelection(grammar: grammar)
            // Still over the budget with the long ones blocked: the shorter ones too, once.
            guard selection.inliningOverBudget, threshold > LongRepeatBlocks.longRepeat else { break }
            threshold = LongRepeatBlocks.longRepeat
        }
        ruleNames = selection.kept.map { grammar.rules[$0].name }
        ruleMemberBit = selection.kept.map { grammar.rules[$0].memberBit }
        ruleRequires = selection.kept.map { grammar.rules[$0].requiresMembers }
        ruleRequiresBeyond = selection.kept.map { grammar.rules[$0].requiresMembersBeyond }
        if let widest = ruleMemberBit.max(), widest >= 64 { beyondWords = MemberBitsBeyond.words(for: widest) }
        ruleDependencies = selection.kept.map { grammar.rules[$0].memberDependencies }
        ruleTracks = selection.kept.map { grammar.rules[$0].tracksMembers }
        ruleMinimum = selection.kept.map { grammar.rules[$0].minimumMembers }
        ruleCounts = selection.kept.map { grammar.rules[$0].memberCounts }
        ruleCountsUndeclared = selection.kept.map { grammar.rules[$0].countsAsUndeclared }
        ruleDistinctItems = selection.kept.map { grammar.rules[$0].distinctStringItems }
        ruleDistinctByValue = selection.kept.map { grammar.rules[$0].distinctStringItems && grammar.rules[$0].distinctByValue }
        ruleDistinctZero = selection.kept.map { grammar.rules[$0].distinctStringItems && grammar.rules[$0].distinctZeroIsDecided }
        ruleDistinctValues = selection.kept.map { grammar.rules[$0].distinctStringItems ? grammar.rules[$0].distinctValues : nil }
        ruleDistinctMinimum = selection.kept.map { grammar.rules[$0].distinctMinimum }
        ruleDistinctLanguage = selection.kept.map { grammar.rules[$0].distinctStringItems ? grammar.rules[$0].distinctLanguage : nil }
        ruleCountedLength = selection.kept.map { grammar.rules[$0].countedLength }
        countedWritable = [Int](repeating: 0, count: ruleCounts.count)
        countedUndeclared = [Bool](repeating: false, count: ruleCounts.count)
        hasMemberSets = ruleTracks.contains(true)
        var builder = NFABuilder(grammar: grammar, selection: selection, classes: classes, maxStates: limits.maxNFAStates)
        for rule in selection.kept {
            let (start, final) = try builder.addRule(rule)
            ruleStart.append(start)
            ruleFinal.append(final)
        }
        label = builder.label
        labelLow = builder.labelLow
        labelHigh = builder.labelHigh
        classList = builder.classList
        callee = builder.callee
        target = builder.target
        isFinal = builder.isFinal
        isCut = builder.isCut
        groupEpsilonEdges(from: builder.edgeFrom, to: builder.edgeTo)
        computeLiveness()
        if hasMemberSets {
            dropUnwritableClosings()
            countedRules = CountedRules(counts: ruleCounts, writable: countedWritable, undeclared: countedUndeclared)
        }
        guard live[Int(ruleStart[0])] else { throw .emptyLanguage }
        try checkLeftRecursion()
        if hasMemberSets { memberFutures = MemberFutures(nfa: self) }
    }

    /// Whether a member-set rule may call kept rule `k` with the members `written` (and `beyond`, its
    /// members of bit 64 and above): its required members are written, and so is every dependency of the
    /// written ones.
    @inline(__always)
    func allowsCall(_ k: Int, written: UInt64, beyond: UnsafeBufferPointer<UInt64>) -> Bool {
        MemberDependency.allowed(written: written, requires: ruleRequires[k], dependencies: ruleDependencies[k])
            && (ruleMinimum[k] == 0 || MemberCounts.towardMinimum(written) >= ruleMinimum[k])
            && (ruleRequiresBeyond[k].isEmpty || MemberBitsBeyond.containsAll(ruleRequiresBeyond[k], in: beyond))
    }

    /// Whether kept rule `k` is a closing rule (it has conditions on the members written).
    @inline(__always)
    func closes(_ k: Int) -> Bool {
        ruleRequires[k] != 0 || !ruleRequiresBeyond[k].isEmpty || !ruleDependencies[k].isEmpty || ruleMinimum[k] > 0
    }

    /// The presence after member-set rule `k` calls rule `callee` from `presence`, or nil where that
    /// call is not allowed: a declared member already written, an undeclared member past a bound, or
    /// (with counts) a member after which the object could not close within its counts. A member of bit
    /// 64 or above leaves the presence word as it is (the automaton keeps such members beside it).
    @inline(__always)
    func presence(after presence: UInt64, tracker k: Int, calling callee: Int) -> UInt64? {
        var after = presence
        let bit = ruleMemberBit[callee]
        if bit >= 64 {
            return presence
        } else if bit >= 0 {
            if presence & (1 << UInt64(bit)) != 0 { return nil }
            after |= 1 << UInt64(bit)
        } else if ruleCountsUndeclared[callee], let counts = ruleCounts[k] {
            guard let added = counts.addingUndeclared(presence) else { return nil }
            after = added
        } else {
            return presence
        }
        if ruleCounts[k] != nil && !countedRules.canClose(k, after: after) { return nil }
        return after
    }

    /// Member-set rules: a closing call that needs a member no usable call of its rule writes (a
    /// required member whose value derives nothing) can never be taken, so its edge is dropped and
    /// liveness computed again, until nothing changes (an object that can no longer close makes the
    /// members holding it unusable in turn). Without this such an object stayed "productive" and every
    /// prefix of it was a dead end; now it derives nothing, as in declared order (where the required
    /// member's empty value empties the object's chain). Per rule: in a rule that joins alternatives
    /// (`joiningMemberSets`), a bit written in one alternative counts for all. Likewise the calls of a
    /// member whose dependency (`memberDependencies`) no usable call writes: once written, the object
    /// could never close. And the closing calls of an object whose counts (`memberCounts`) no set of the
    /// members it can write meets.
    private mutating func dropUnwritableClosings() {
        var dropped = true
        while dropped {
            dropped = false
            for k in 0..<ruleStart.count where ruleTracks[k] {
                let lo = Int(ruleStart[k]), hi = k + 1 < ruleStart.count ? Int(ruleStart[k + 1]) : stateCount
                var writable: UInt64 = 0
                var writableBeyond: Set<Int16> = []
                var undeclared = false
                for s in lo..<hi where usableCall(s) {
                    let bit = ruleMemberBit[Int(callee[s])]
                    if bit >= 64 { writableBeyond.insert(bit) } else if bit >= 0 { writable |= 1 << UInt64(bit) }
                    if ruleCountsUndeclared[Int(callee[s])] { undeclared = true }
                }
                countedWritable[k] = writable.nonzeroBitCount
                countedUndeclared[k] = undeclared
                // An object that cannot meet its counts with the members it can write never closes.
                let hopeless = ruleCounts[k].map { !$0.canClose(after: 0, writable: writable.nonzeroBitCount, undeclared: undeclared) } ?? false
                // A member whose dependencies cannot all be written leads nowhere once written.
                var doomed: UInt64 = 0
                for s in lo..<hi where label[s] == Self.labelCall {
                    for d in ruleDependencies[Int(callee[s])] where d.requires & ~writable != 0 { doomed |= d.trigger }
                }
                for s in lo..<hi where label[s] == Self.labelCall {
                    let c = Int(callee[s]), bit = ruleMemberBit[c]
                    guard ruleRequires[c] & ~writable != 0 || (bit >= 0 && bit < 64 && doomed & (1 << UInt64(bit)) != 0)
                            || ruleRequiresBeyond[c].contains(where: { !writableBeyond.contains($0) })
                            || (hopeless && closes(c)) else { continue }
                    label[s] = Self.labelNone
                    callee[s] = -1
                    target[s] = -1
                    dropped = true
                }
            }
            if dropped { computeLiveness() }
        }
    }

    /// Counting sort of the ε-edges by source, into `epsilonStart`/`epsilonTargets`.
    private mutating func groupEpsilonEdges(from: [Int32], to: [Int32]) {
        let n = stateCount
        var start = [Int32](repeating: 0, count: n + 1)
        for f in from { start[Int(f) + 1] += 1 }
        for i in 0..<n { start[i + 1] += start[i] }
        var fill = start
        var targets = [Int32](repeating: 0, count: from.count)
        for (i, f) in from.enumerated() {
            targets[Int(fill[Int(f)])] = to[i]
            fill[Int(f)] += 1
        }
        epsilonStart = start
        epsilonTargets = targets
    }

    /// Backward reachability from every rule's final state: ε and byte edges directly, a call edge
    /// once its callee is productive and its return target live.
    ///
    /// It touches every state and edge a few times, so it runs on raw buffers: with array accessors
    /// (bounds and uniqueness checks on every store) it was a sixth of compiling a typical schema.
    private mutating func computeLiveness() {
        let n = stateCount, ruleCount = ruleStart.count
        // Scratch tables (freed on return). Reverse edges: plain (ε, bytes) by target, in `preds` from
        // `plainStart`; call sites by return target and by callee, as linked lists threaded through
        // `nextByTarget`/`nextByCallee`.
        let liveOut = Self.scratch(n, false), productiveOut = Self.scratch(ruleCount, false)
        let plainStart = Self.scratch(n + 1, Int32(0)), fill = Self.scratch(n + 1, Int32(0))
        let siteByTarget = Self.scratch(n, Int32(-1)), nextByTarget = Self.scratch(n, Int32(-1))
        let siteByCallee = Self.scratch(ruleCount, Int32(-1)), nextByCallee = Self.scratch(n, Int32(-1))
        let ruleOfStart = Self.scratch(n, Int32(-1))
        var preds = Self.scratch(0, Int32(0))
        defer {
            for b in [plainStart, fill, siteByTarget, nextByTarget, siteByCallee, nextByCallee, ruleOfStart, preds] { b.deallocate() }
            liveOut.deallocate(); productiveOut.deallocate()
        }
        for (k, s) in ruleStart.enumerated() { ruleOfStart[Int(s)] = Int32(k) }
        var work: [Int32] = []
        work.reserveCapacity(n)
        epsilonStart.withUnsafeBufferPointer { epsStart in
        epsilonTargets.withUnsafeBufferPointer { epsTargets in
        label.withUnsafeBufferPointer { label in
        target.withUnsafeBufferPointer { target in
        callee.withUnsafeBufferPointer { callee in
        isCut.withUnsafeBufferPointer { isCut in
            // An ε-edge into a budget's cut state is left out: the cut is taken by the matcher when the
            // budget is spent, so a body state that could only finish through it is not live.
            for s in 0..<n {
                for i in Int(epsStart[s])..<Int(epsStart[s + 1]) where !isCut[Int(epsTargets[i])] { plainStart[Int(epsTargets[i]) + 1] += 1 }
                if label[s] == Self.labelClasses { plainStart[Int(target[s]) + 1] += 1 }
                if label[s] == Self.labelCall {
                    let t = Int(target[s]), k = Int(callee[s])
                    nextByTarget[s] = siteByTarget[t]; siteByTarget[t] = Int32(s)
                    nextByCallee[s] = siteByCallee[k]; siteByCallee[k] = Int32(s)
                }
            }
            for i in 0..<n { plainStart[i + 1] += plainStart[i] }
            _ = fill.update(fromContentsOf: plainStart)
            preds.deallocate()
            preds = Self.scratch(Int(plainStart[n]), Int32(0))
            for s in 0..<n {
                for i in Int(epsStart[s])..<Int(epsStart[s + 1]) where !isCut[Int(epsTargets[i])] {
                    let t = Int(epsTargets[i]); preds[Int(fill[t])] = Int32(s); fill[t] += 1
                }
                if label[s] == Self.labelClasses { let t = Int(target[s]); preds[Int(fill[t])] = Int32(s); fill[t] += 1 }
            }
            let live = liveOut, productive = productiveOut
            for f in ruleFinal where !live[Int(f)] { live[Int(f)] = true; work.append(f) }
            while let x = work.popLast() {
                let xi = Int(x)
                for i in Int(plainStart[xi])..<Int(plainStart[xi + 1]) {
                    let p = Int(preds[i])
                    if !live[p] { live[p] = true; work.append(Int32(p)) }
                }
                var p = siteByTarget[xi]
                while p >= 0 {
                    if productive[Int(callee[Int(p)])] && !live[Int(p)] { live[Int(p)] = true; work.append(p) }
                    p = nextByTarget[Int(p)]
                }
                let k = Int(ruleOfStart[xi])
                if k >= 0 && !productive[k] {
                    productive[k] = true
                    var q = siteByCallee[k]
                    while q >= 0 {
                        if live[Int(target[Int(q)])] && !live[Int(q)] { live[Int(q)] = true; work.append(q) }
                        q = nextByCallee[Int(q)]
                    }
                }
            }
        }}}}}}
        live = Array(liveOut)
        productive = Array(productiveOut)
    }

    /// A raw buffer of `count` copies of `value`, for scratch tables the caller frees.
    private static func scratch<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
        let b = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        b.initialize(repeating: value)
        return b
    }

    /// True when the byte edge of state s reads class `cls`. Class lists are sorted, so a binary search;
    /// most are a single class.
    @inline(__always)
    func reads(_ s: Int, _ cls: Int) -> Bool {
        var lo = Int(labelLow[s]), hi = Int(labelHigh[s])
        let c = UInt16(cls)
        while lo < hi {
            let mid = (lo + hi) >> 1
            let v = classList[mid]
            if v == c { return true }
            if v < c { lo = mid + 1 } else { hi = mid }
        }
        return false
    }

    /// True when the call edge of state s can be used: its callee derives something and the caller can
    /// finish after it returns.
    @inline(__always)
    func usableCall(_ s: Int) -> Bool {
        label[s] == Self.labelCall && productive[Int(callee[s])] && live[Int(target[s])]
    }

    /// A rule that can call itself again before any byte is consumed would push forever: refuse it.
    private func checkLeftRecursion() throws(GrammarCompileError) {
        let ruleCount = ruleStart.count
        // States of rule k reachable from its start without reading a byte (ε and calls of nullable
        // rules), and the rules called on the way.
        // Visited marks by walk number (one array for all walks instead of a hashed set per walk).
        var visited = [Int32](repeating: 0, count: stateCount)
        var walk: Int32 = 0
        func zeroByteReach(_ k: Int, _ nullable: [Bool]) -> (final: Bool, callees: Set<Int>) {
            walk += 1
            visited[Int(ruleStart[k])] = walk
            var stack = [ruleStart[k]]
            var callees = Set<Int>()
            var reachedFinal = false
            while let s = stack.popLast() {
                let i = Int(s)
                if isFinal[i] { reachedFinal = true }
                for e in Int(epsilonStart[i])..<Int(epsilonStart[i + 1]) {
                    let t = epsilonTargets[e]
                    if live[Int(t)] && visited[Int(t)] != walk { visited[Int(t)] = walk; stack.append(t) }
                }
                if usableCall(i) {
                    let c = Int(callee[i])
                    callees.insert(c)
                    let t = target[i]
                    if nullable[c] && visited[Int(t)] != walk { visited[Int(t)] = walk; stack.append(t) }
                }
            }
            return (reachedFinal, callees)
        }
        var nullable = [Bool](repeating: false, count: ruleCount)
        var changed = true
        while changed {
            changed = false
            for k in 0..<ruleCount where !nullable[k] && productive[k] && zeroByteReach(k, nullable).final {
                nullable[k] = true; changed = true
            }
        }
        let edges = (0..<ruleCount).map { productive[$0] ? zeroByteReach($0, nullable).callees.sorted() : [] }
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
