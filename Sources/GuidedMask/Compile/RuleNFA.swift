import GuidedGrammar

/// Builds Thompson NFAs for the kept rules, with inlined rules expanded in place: edges are ε, a byte
/// set (a range of `classList`), or a call of another kept rule. Everything goes into flat arrays (no
/// per-state allocation): a large JSON Schema expands to tens of thousands of NFA states, and building
/// them is most of what compiling costs.
struct NFABuilder {
    /// ε-edges as (from, to) pairs, grouped by source when the NFA is finished.
    var edgeFrom: [Int32] = []
    var edgeTo: [Int32] = []
    var label: [UInt8] = []
    /// Classes of a byte edge: `classList[labelLow[s] ..< labelHigh[s]]`.
    var labelLow: [Int32] = []
    var labelHigh: [Int32] = []
    var callee: [Int32] = []
    var target: [Int32] = []
    var isFinal: [Bool] = []
    /// The cut state of a token budget (see `.tokenBudget` in `build`): ε-edges into it do not make
    /// their source live, since the cut is the matcher's move, not the model's.
    var isCut: [Bool] = []
    /// Starts with every class once, so a single class k is the range `k ..< k + 1`.
    var classList: [UInt16]

    private let grammar: Grammar
    private let selection: RuleSelection
    private let classes: ByteClasses
    fileprivate let maxStates: Int
    /// The running compile's budget, checked every thousand states.
    fileprivate let budget = CompileBudget.current
    private var classRanges = ByteSetTable()
    fileprivate var ruleName = ""
    /// Inlined copies of `tailShared` rules by (rule, end state): their entry states.
    private var sharedCopies: [Int64: Int32] = [:]
    /// Shared copies begun but not yet built: (rule, entry, end). Built after the kept rule's body, so a
    /// chain of tail references (a string automaton's per-state rules, thousands long) is a loop here,
    /// not a recursion as deep as the chain.
    private var pendingCopies: [(rule: Int, entry: Int32, to: Int32)] = []
    /// Inside a `buildCopies` template every state of a copy must be built before the template is
    /// shifted, so shared copies are built at once there (and inside a token budget's body, whose
    /// states must all exist when its cut edges are added).
    private var templateDepth = 0
    /// Inside a token budget's body (budgets do not nest).
    private var inBudget = false

    var stateCount: Int { label.count }

    init(grammar: Grammar, selection: RuleSelection, classes: ByteClasses, maxStates: Int) {
        self.grammar = grammar
        self.selection = selection
        self.classes = classes
        self.maxStates = maxStates
        classList = (0..<classes.count).map { UInt16($0) }
    }

    /// Adds the automaton of one kept rule; returns its start and final state.
    mutating func addRule(_ rule: Int) throws(GrammarCompileError) -> (start: Int32, final: Int32) {
        ruleName = grammar.rules[rule].name
        let start = try newState()
        let final = try newState()
        isFinal[Int(final)] = true
        try build(grammar.rules[rule].body, from: start, to: final)
        while let p = pendingCopies.popLast() {
            ruleName = grammar.rules[p.rule].name
            try build(grammar.rules[p.rule].body, from: p.entry, to: p.to)
        }
        return (start, final)
    }

    fileprivate mutating func newState() throws(GrammarCompileError) -> Int32 {
        guard label.count < maxStates else { throw .automatonTooLarge(rule: ruleName, limit: maxStates) }
        if label.count & 1023 == 1023, let spent = budget?.exceeded { throw .budgetExceeded(spent) }
        label.append(GrammarNFA.labelNone); labelLow.append(0); labelHigh.append(0)
        callee.append(-1); target.append(-1); isFinal.append(false); isCut.append(false)
        return Int32(label.count - 1)
    }

    @inline(__always)
    fileprivate mutating func epsilon(_ from: Int32, _ to: Int32) {
        edgeFrom.append(from); edgeTo.append(to)
    }

    private mutating func classRange(_ s: ByteSet) -> (Int32, Int32) {
        if let r = classRanges.value(for: s) { return r }
        let low = Int32(classList.count)
        for c in 0..<classes.byteCount where s.contains(classes.representative[c]) { classList.append(UInt16(c)) }
        let r = (low, Int32(classList.count))
        classRanges.insert(s, r)
        return r
    }

    /// A state carries at most one labelled edge (besides ε-edges): the label goes on `from` when it has
    /// none yet, else on a fresh ε-successor of `from` (same language: that successor is reachable only
    /// through `from`). Labelling `from` directly saves a state per edge, which halves the NFA of
    /// literal-heavy grammars.
    private mutating func byteEdge(_ from: Int32, _ range: (Int32, Int32), _ to: Int32) throws(GrammarCompileError) {
        var s = from
        if label[Int(from)] != GrammarNFA.labelNone || isFinal[Int(from)] {
            s = try newState()
            epsilon(from, s)
        }
        label[Int(s)] = GrammarNFA.labelClasses
        labelLow[Int(s)] = range.0; labelHigh[Int(s)] = range.1
        target[Int(s)] = to
    }

    fileprivate mutating func build(_ e: GrammarExpr, from: Int32, to: Int32) throws(GrammarCompileError) {
        switch e {
        case .empty:
            epsilon(from, to)
        case .nothing:
            break
        case .bytes(let bs):
            if bs.isEmpty { epsilon(from, to); return }
            var cur = from
            for (i, b) in bs.enumerated() {
                let next = i == bs.count - 1 ? to : try newState()
                let c = Int32(classes.classOf[Int(b)])
                try byteEdge(cur, (c, c + 1), next)
                cur = next
            }
        case .byteSet(let s):
            if s.isEmpty { return }
            try byteEdge(from, classRange(s), to)
        case .sequence(let parts):
            if parts.isEmpty { epsilon(from, to); return }
            // A sequence ending in a shared tail (a name trie's "anything else" branch, a string
            // automaton's next-state rule) ends its other parts at the copy's entry itself: the state
            // between them would only pass on to it by ε (one state per trie node and branch).
            var count = parts.count, end = to
            if count >= 2, case .rule(let r) = parts[count - 1], selection.keptIndex[r.index] < 0,
               selection.tailShared[r.index] {
                end = try sharedCopyEntry(r.index, to: to)
                count -= 1
            }
            var cur = from
            var i = 0
            while i < count {
                // `x (s x)*` (a JSON array's items, a member-set object's members): one copy of `x`.
                if i + 1 < count, let separator = Self.separatorOfList(parts[i], parts[i + 1]) {
                    let next = i + 1 == count - 1 ? end : try newState()
                    try buildSeparatedList(parts[i], separator: separator, from: cur, to: next)
                    cur = next
                    i += 2
                    continue
                }
                let next = i == count - 1 ? end : try newState()
                try build(parts[i], from: cur, to: next)
                cur = next
                i += 1
            }
        case .choice(let alts):
            for a in alts {
                // A fresh entry per alternative keeps alternatives that loop back to `from` apart. One
                // that cannot (it starts with a byte edge, an ε-edge or a call) is built from `from`
                // itself: in name tries and character classes that is most of them, and each saves a
                // state and an ε-edge.
                if entersWithoutLoop(a) { try build(a, from: from, to: to); continue }
                let s = try newState()
                epsilon(from, s)
                try build(a, from: s, to: to)
            }
        case .repeat(let inner, let lo, let hi):
            guard lo >= 0, hi.map({ $0 >= lo }) ?? true else { throw .invalidRepetition(rule: ruleName, min: lo, max: hi) }
            var cur = try buildCopies(inner, count: lo, from: from, exit: nil)
            if let hi {
                cur = try buildCopies(inner, count: hi - lo, from: cur, exit: to)
                epsilon(cur, to)
            } else {
                // Loop on a fresh state so the body's ε-paths cannot leak into `from`'s other edges.
                let loop = try newState()
                epsilon(cur, loop)
                let back = try newState()
                try build(inner, from: loop, to: back)
                epsilon(back, loop)
                epsilon(loop, to)
            }
        case .token(let r):
            guard let id = r.resolvedID, let c = classes.tokenClass(id) else { throw .unknownToken("unresolved token \(r)") }
            try byteEdge(from, (Int32(c), Int32(c) + 1), to)
        case .tokenBudget(let body, let maxTokens, let then):
            try buildBudget(body, maxTokens: maxTokens, then: then, from: from, to: to)
        case .rule(let r):
            let k = selection.keptIndex[r.index]
            if k >= 0 {
                var s = from
                if label[Int(from)] != GrammarNFA.labelNone || isFinal[Int(from)] {
                    s = try newState()
                    epsilon(from, s)
                }
                label[Int(s)] = GrammarNFA.labelCall
                callee[Int(s)] = Int32(k)
                target[Int(s)] = to
            } else if selection.tailShared[r.index] {
                // One copy per end state, entered by ε from every reference that ends there.
                epsilon(from, try sharedCopyEntry(r.index, to: to))
            } else {
                let saved = ruleName
                ruleName = grammar.rules[r.index].name
                try build(grammar.rules[r.index].body, from: from, to: to)
                ruleName = saved
            }
        }
    }
}

extension NFABuilder {
    /// `s` where `first, next` is `x, (s x)*`: an item, then any number of separated items (JSON arrays,
    /// member-set objects, `x ("," x)*` in grammar files); nil otherwise.
    static func separatorOfList(_ first: GrammarExpr, _ next: GrammarExpr) -> GrammarExpr? {
        guard case .repeat(let inner, let lo, let hi) = next, lo == 0, hi == nil, case .sequence(let body) = inner,
              body.count >= 2, body[body.count - 1] == first else { return nil }
        return .sequence(Array(body.dropLast()))
    }

    /// `item (separator item)*` with one copy of `item`: it is entered at a fresh state, and from its end
    /// the separator leads back to that entry or the list ends. Built as written, the first item and the
    /// later ones were two copies, which doubled a list's states (a member-set object's names and member
    /// calls, an array's item schema) and made the first item's deterministic states and cached masks
    /// apart from the later ones'. The entry and the separator's start are fresh states, so neither the
    /// loop nor the item's own paths reach `from`'s other edges.
    fileprivate mutating func buildSeparatedList(_ item: GrammarExpr, separator: GrammarExpr, from: Int32, to: Int32) throws(GrammarCompileError) {
        let entry = try newState()
        epsilon(from, entry)
        let after = try newState()
        try build(item, from: entry, to: after)
        let again = try newState()
        epsilon(after, again)
        try build(separator, from: again, to: entry)
        epsilon(after, to)
    }

    /// The entry of the copy of tail-shared rule `rule` that ends at `to`: one per (rule, end state),
    /// made on first use. Outside a template its body is built after the kept rule's (`pendingCopies`).
    fileprivate mutating func sharedCopyEntry(_ rule: Int, to: Int32) throws(GrammarCompileError) -> Int32 {
        let key = Int64(rule) << 32 | Int64(to)
        if let entry = sharedCopies[key] { return entry }
        let entry = try newState()
        sharedCopies[key] = entry
        if templateDepth == 0 { pendingCopies.append((rule, entry, to)); return entry }
        let saved = ruleName
        ruleName = grammar.rules[rule].name
        try build(grammar.rules[rule].body, from: entry, to: to)
        ruleName = saved
        return entry
    }

    /// `body` with a budget: entered by ε at a fresh entry state, left by ε from a fresh exit state, and
    /// every state of the body (built at once, in one range) has an ε-edge to one *cut* state, whose
    /// only edge reads the budget's symbol class into `then`. The matcher reads that class when the
    /// budget is spent (`GrammarMatcher.accept(token:)`), so a deterministic state holding a body state
    /// has the cut transition, which is also how the matcher knows the parse is inside the budget.
    mutating func buildBudget(_ body: GrammarExpr, maxTokens: Int, then: GrammarExpr, from: Int32, to: Int32) throws(GrammarCompileError) {
        guard !inBudget, let cls = classes.budgetClass(maxTokens) else { throw .budgetBody(rule: ruleName) }
        let entry = try newState(), exit = try newState(), cut = try newState(), resume = try newState()
        epsilon(from, entry)
        epsilon(exit, to)
        isCut[Int(cut)] = true
        try byteEdge(cut, (Int32(cls), Int32(cls) + 1), resume)
        let mark = stateCount
        inBudget = true
        templateDepth += 1
        try build(body, from: entry, to: exit)
        templateDepth -= 1
        inBudget = false
        // Only states that read something get the edge: a state that merely passes on by ε (the end of
        // a sequence, the body's last state) belongs to a parse that has finished the body, and a
        // deterministic state made only of such parses must not count as inside.
        for s in [Int(entry)] + Array(mark..<stateCount) {
            if label[s] == GrammarNFA.labelCall { throw .budgetBody(rule: ruleName) }
            if label[s] == GrammarNFA.labelClasses { epsilon(Int32(s), cut) }
        }
        try build(then, from: resume, to: to)
    }

    /// True when building `e` from a state adds no path that comes back to that state: `e` begins with
    /// a byte edge, an ε-edge to the end, or a call or a jump into a shared copy (whose states are
    /// fresh). Then alternatives can share their entry state without mixing.
    func entersWithoutLoop(_ e: GrammarExpr) -> Bool {
        switch e {
        case .empty, .nothing, .bytes, .byteSet, .token, .tokenBudget: return true
        case .sequence(let parts): return parts.first.map(entersWithoutLoop) ?? true
        case .rule(let r): return selection.keptIndex[r.index] >= 0 || selection.tailShared[r.index]
        case .choice, .repeat: return false
        }
    }

    /// Builds `count` copies of `inner` in a chain from `from`, each copy's entry also ε-linked to `exit`
    /// when given (the optional copies of a bounded repeat); returns the chain's last state.
    ///
    /// Bounded repeats make most of a JSON Schema automaton (`maxLength` chains, whitespace runs), so
    /// only the first two copies are built from the expression. The second starts at a fresh state like
    /// every later one, so it is a template: copy j is the second copy's states, edges and entry label
    /// shifted by j - 1 blocks, which is a few array appends per state instead of a walk of the
    /// expression.
    mutating func buildCopies(_ inner: GrammarExpr, count: Int, from: Int32, exit: Int32?) throws(GrammarCompileError) -> Int32 {
        guard count > 0 else { return from }
        // Copy 0: its entry may be a state that already has edges, so it is built as it comes.
        var cur = try buildCopy(inner, from: from, exit: exit)
        guard count > 1 else { return cur }
        let entry = cur
        let stateMark = Int32(stateCount), edgeMark = edgeFrom.count
        templateDepth += 1
        defer { templateDepth -= 1 }
        cur = try buildCopy(inner, from: entry, exit: exit)
        let block = Int32(stateCount) - stateMark
        let edgeEnd = edgeFrom.count
        guard count > 2 else { return cur }
        // Checked without overflow: a bound like `maxItems: 1e80` arrives as a count near `Int.max`.
        let (more, overflow) = (count - 2).multipliedReportingOverflow(by: Int(block))
        guard !overflow, more <= maxStates - stateCount else { throw .automatonTooLarge(rule: ruleName, limit: maxStates) }
        // Copies are written through raw buffers after growing the arrays once: appending state by
        // state (six arrays, a uniqueness and capacity check each) was most of this function's cost.
        let copies = count - 2, b = Int(block), edgeBlock = edgeEnd - edgeMark
        let base = stateCount
        label.append(contentsOf: repeatElement(GrammarNFA.labelNone, count: copies * b))
        labelLow.append(contentsOf: repeatElement(0, count: copies * b))
        labelHigh.append(contentsOf: repeatElement(0, count: copies * b))
        callee.append(contentsOf: repeatElement(-1, count: copies * b))
        target.append(contentsOf: repeatElement(-1, count: copies * b))
        isFinal.append(contentsOf: repeatElement(false, count: copies * b))
        isCut.append(contentsOf: repeatElement(false, count: copies * b))
        let edgeBase = edgeFrom.count
        edgeFrom.append(contentsOf: repeatElement(0, count: copies * edgeBlock))
        edgeTo.append(contentsOf: repeatElement(0, count: copies * edgeBlock))
        // A snapshot of the template: writing copy 2's entry relabels the template's end state.
        let range = Int(stateMark)..<Int(stateMark + block)
        let tLabel = Array(label[range]), tLow = Array(labelLow[range]), tHigh = Array(labelHigh[range])
        let tCallee = Array(callee[range]), tTarget = Array(target[range])
        for k in range where isCut[k] {   // a budget inside the repeat: its cut state is copied too
            for j in 2..<count { isCut[base + (j - 2) * b + (k - Int(stateMark))] = true }
        }
        let e = Int(entry)
        label.withUnsafeMutableBufferPointer { label in
        labelLow.withUnsafeMutableBufferPointer { low in
        labelHigh.withUnsafeMutableBufferPointer { high in
        callee.withUnsafeMutableBufferPointer { callee in
        target.withUnsafeMutableBufferPointer { target in
        edgeFrom.withUnsafeMutableBufferPointer { from in
        edgeTo.withUnsafeMutableBufferPointer { to in
            for j in 2..<count {
                let shift = Int32(j - 1) * block
                let newEntry = stateMark + Int32(j - 2) * block
                @inline(__always) func moved(_ x: Int32) -> Int32 { x == entry ? newEntry : (x >= stateMark ? x + shift : x) }
                let out = base + (j - 2) * b
                for k in 0..<b {
                    label[out + k] = tLabel[k]; low[out + k] = tLow[k]; high[out + k] = tHigh[k]
                    callee[out + k] = tCallee[k]
                    let t = tTarget[k]
                    target[out + k] = t < 0 ? t : moved(t)
                }
                let n = Int(newEntry)
                label[n] = label[e]; low[n] = low[e]; high[n] = high[e]
                callee[n] = callee[e]; target[n] = target[e] < 0 ? target[e] : moved(target[e])
                let eo = edgeBase + (j - 2) * edgeBlock
                for k in 0..<edgeBlock {
                    from[eo + k] = moved(from[edgeMark + k]); to[eo + k] = moved(to[edgeMark + k])
                }
            }
        }}}}}}}
        cur = stateMark + Int32(count - 2) * block
        return cur
    }

    /// One copy: a fresh end state, the optional exit edge, then the expression.
    private mutating func buildCopy(_ inner: GrammarExpr, from: Int32, exit: Int32?) throws(GrammarCompileError) -> Int32 {
        let next = try newState()
        if let exit { epsilon(from, exit) }
        try build(inner, from: from, to: next)
        return next
    }
}

/// Byte sets to their class ranges, open-addressed with a multiply-xor hash: the builder looks a set up
/// for every byte-set edge (the same whitespace and digit sets thousands of times), and `Dictionary`'s
/// seeded hashing of four words was a tenth of compile time.
struct ByteSetTable {
    private var keys: [ByteSet] = []
    private var values: [(Int32, Int32)] = []
    private var slots = [Int32](repeating: -1, count: 64)

    private func slot(_ s: ByteSet) -> Int {
        var h: UInt64 = 0
        withUnsafeBytes(of: s) { raw in
            for i in 0..<(raw.count / 8) { h = (h ^ raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15 }
        }
        return Int(truncatingIfNeeded: h >> 32) & (slots.count - 1)
    }

    func value(for s: ByteSet) -> (Int32, Int32)? {
        var i = slot(s)
        while slots[i] >= 0 {
            if keys[Int(slots[i])] == s { return values[Int(slots[i])] }
            i = (i + 1) & (slots.count - 1)
        }
        return nil
    }

    mutating func insert(_ s: ByteSet, _ v: (Int32, Int32)) {
        if (keys.count + 1) * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for (k, key) in keys.enumerated() {
                var i = slot(key)
                while slots[i] >= 0 { i = (i + 1) & (slots.count - 1) }
                slots[i] = Int32(k)
            }
        }
        var i = slot(s)
        while slots[i] >= 0 { i = (i + 1) & (slots.count - 1) }
        slots[i] = Int32(keys.count)
        keys.append(s)
        values.append(v)
    }
}
