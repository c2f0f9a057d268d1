/// A deterministic finite automaton over bytes, built from a regular `GrammarExpr`.
///
/// This is how constraints that grammars cannot combine directly are combined exactly: a JSON Schema
/// `pattern` intersected with `minLength`/`maxLength`, `allOf` of patterns, `not: {pattern}`
/// (a complement within "valid string content"). Build DFAs, combine them with `intersection`,
/// `union`, `subtracting`, test `isEmpty`, then turn the result back into grammar rules with
/// `grammarExpr(into:name:)`.
///
/// Layout: bytes map to equivalence classes (`classOf`), and `table[state * classCount + class]` is
/// the next state or -1 (the implicit dead state). State 0 is the start state. Every operation
/// that can grow the automaton is bounded by `AutomatonLimits` and throws instead of blowing up.
public struct ByteDFA: Hashable, Sendable {
    /// Byte → class.
    public let classOf: [UInt8]
    public let classCount: Int
    /// Transitions, row-major by state; -1 is the dead state.
    public let table: [Int32]
    /// Accepting states.
    public let accepting: [Bool]

    public var stateCount: Int { accepting.count }

    init(classOf: [UInt8], classCount: Int, table: [Int32], accepting: [Bool]) {
        self.classOf = classOf
        self.classCount = classCount
        self.table = table
        self.accepting = accepting
    }

    /// The automaton of the empty language.
    public static let emptyLanguage = ByteDFA(classOf: [UInt8](repeating: 0, count: 256), classCount: 1, table: [-1], accepting: [false])

    /// A DFA for `expr`; rule references are resolved in `grammar` and inlined (recursion is an error).
    /// The result is minimal.
    /// `universe`: one character of the alphabet all of `expr`'s strings are made of, when known (see
    /// `ByteNFA.universalStates`).
    public init(_ expr: GrammarExpr, grammar: Grammar? = nil, limits: AutomatonLimits = .default,
                universe: GrammarExpr? = nil) throws(AutomatonError) {
        let nfa = try ByteNFA(expr, grammar: grammar, limits: limits, universe: universe)
        self = try Self.subsetConstruction(nfa, limit: limits.maxDFAStates).minimized()
    }

    /// A DFA for the start rule of `grammar`.
    public init(grammar: Grammar, limits: AutomatonLimits = .default) throws(AutomatonError) {
        try self.init(.rule(grammar.start), grammar: grammar, limits: limits)
    }

    @inlinable
    public func next(_ state: Int32, _ byte: UInt8) -> Int32 {
        table[Int(state) * classCount + Int(classOf[Int(byte)])]
    }

    /// Whether the automaton accepts exactly these bytes.
    public func matches(_ bytes: some Sequence<UInt8>) -> Bool {
        var s: Int32 = 0
        for b in bytes {
            s = next(s, b)
            if s < 0 { return false }
        }
        return accepting[Int(s)]
    }

    public func matches(_ text: String) -> Bool { matches(text.utf8) }

    /// Whether the empty string is accepted.
    public var acceptsEmpty: Bool { accepting[0] }

    /// Whether no string at all is accepted.
    public var isEmpty: Bool {
        var seen = [Bool](repeating: false, count: stateCount)
        var stack: [Int32] = [0]
        seen[0] = true
        while let s = stack.popLast() {
            if accepting[Int(s)] { return false }
            for c in 0..<classCount {
                let t = table[Int(s) * classCount + c]
                if t >= 0 && !seen[Int(t)] { seen[Int(t)] = true; stack.append(t) }
            }
        }
        return true
    }

    /// The bytes of each class.
    public func bytes(ofClass c: Int) -> ByteSet {
        var set = ByteSet()
        for b in 0..<256 where Int(classOf[b]) == c { set.insert(UInt8(b)) }
        return set
    }

    // MARK: - Subset construction

    static func subsetConstruction(_ nfa: ByteNFA, limit: Int) throws(AutomatonError) -> ByteDFA {
        let (classOf, classCount) = nfa.byteClasses()
        // Each state's moves as flat (class, target) lists, so a state's moves are bucketed by class
        // directly (per-edge nested arrays cost a retain and release per edge read).
        var classesOfSet: [ByteSet: [Int32]] = [:]
        let n = nfa.stateCount
        var moveStart = [Int](repeating: 0, count: n + 1)
        var moveClass: [Int32] = []
        var moveTarget: [Int32] = []
        for s in 0..<n {
            for e in nfa.edges[s] {
                let cs: [Int32]
                if let known = classesOfSet[e.set] { cs = known } else {
                    var seen = [Bool](repeating: false, count: classCount)
                    var list: [Int32] = []
                    for b in e.set.members where !seen[Int(classOf[Int(b)])] {
                        seen[Int(classOf[Int(b)])] = true
                        list.append(Int32(classOf[Int(b)]))
                    }
                    classesOfSet[e.set] = list
                    cs = list
                }
                for c in cs { moveClass.append(c); moveTarget.append(e.target) }
            }
            moveStart[s + 1] = moveClass.count
        }

        var mark = [Int](repeating: -1, count: nfa.stateCount)
        var generation = 0
        /// The ε-closure of `seeds`, sorted.
        func closure(_ seeds: [Int32]) -> [Int32] {
            generation += 1
            var out: [Int32] = []
            var stack: [Int32] = []
            for s in seeds where mark[Int(s)] != generation { mark[Int(s)] = generation; stack.append(s) }
            while let s = stack.popLast() {
                out.append(s)
                for t in nfa.epsilon[Int(s)] where mark[Int(t)] != generation {
                    mark[Int(t)] = generation
                    stack.append(t)
                }
            }
            out.sort()
            return out
        }

        // A set holding a universal state accepts every string of the alphabet whatever else it holds
        // (the others accept only strings of the alphabet, split into its characters at the same
        // places, since the characters' encoding is a prefix code): it is that state's closure. Without
        // this, an unanchored pattern's automaton, after its match, went on telling apart every partial
        // match still in progress (`nightly|beta|devedition|release|esr|unbranded-release`: 3,457
        // states, minimized to 54; 30 ms as a `patternProperties` key).
        let universalSet: [Int32]? = nfa.universalStates.first.map { closure([$0]) }
        var isUniversal = [Bool](repeating: false, count: universalSet == nil ? 0 : nfa.stateCount)
        for u in nfa.universalStates { isUniversal[Int(u)] = true }
        func settled(_ set: [Int32]) -> [Int32] {
            guard let universalSet, set.contains(where: { isUniversal[Int($0)] }) else { return set }
            return universalSet
        }

        var sets = StateSetTable()
        /// DFA state per kernel (the sorted move targets before closure): skips repeated closures.
        var kernels = StateSetTable()
        var kernelState: [Int32] = []
        var table: [Int32] = []
        var accepting: [Bool] = []
        let budget = CompileBudget.current
        func add(_ set: [Int32]) throws(AutomatonError) -> Int32 {
            let (known, hash) = set.withUnsafeBufferPointer { b in
                let h = StateSetTable.hash(b)
                return (sets.find(b, hash: h), h)
            }
            if let known { return known }
            guard sets.count < limit else { throw .tooManyStates(limit: limit) }
            if sets.count & 255 == 255, let spent = budget?.exceeded { throw .budgetExceeded(spent) }
            accepting.append(set.contains(nfa.accept))
            table.append(contentsOf: repeatElement(-1, count: classCount))
            return set.withUnsafeBufferPointer { sets.insert($0, hash: hash) }
        }
        _ = try add(settled(closure([nfa.start])))
        var buckets = [[Int32]](repeating: [], count: classCount)
        var touched: [Int] = []
        var current: [Int32] = []
        var i = 0
        while i < sets.count {
            // Copied out: the table grows below, and a slice of it held meanwhile would copy it whole.
            current.removeAll(keepingCapacity: true)
            current.append(contentsOf: sets.list(i))
            for s in current {
                for m in moveStart[Int(s)]..<moveStart[Int(s) + 1] {
                    let c = Int(moveClass[m])
                    if buckets[c].isEmpty { touched.append(c) }
                    buckets[c].append(moveTarget[m])
                }
            }
            for c in touched {
                buckets[c].sort()
                let (known, hash) = buckets[c].withUnsafeBufferPointer { b in
                    let h = StateSetTable.hash(b)
                    return (kernels.find(b, hash: h), h)
                }
                let id: Int32
                if let known {
                    id = kernelState[Int(known)]
                } else {
                    id = try add(settled(closure(buckets[c])))
                    buckets[c].withUnsafeBufferPointer { kernels.insert($0, hash: hash) }
                    kernelState.append(id)
                }
                table[i * classCount + c] = id
                buckets[c].removeAll(keepingCapacity: true)
            }
            touched.removeAll(keepingCapacity: true)
            i += 1
        }
        return ByteDFA(classOf: classOf, classCount: classCount, table: table, accepting: accepting)
    }
}
