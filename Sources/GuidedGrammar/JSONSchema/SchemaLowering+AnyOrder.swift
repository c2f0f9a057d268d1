import GuidedSchema

/// What the any-order member automaton needs to know about one object, gathered by `lowerObject`.
struct AnyOrderObject {
    /// Every name the object mentions; forbidden ones are never written.
    var members: [SchemaLowering.Member]
    /// `dependentRequired` pairs by member index: if `a` is present, `b` must be.
    var dependencies: [(a: Int, b: Int)]
    var minProperties: Int
    var maxProperties: Int?
    /// One undeclared member (`"name": value` with a name outside `members`), `.nothing` if none may appear.
    var undeclaredMember: GrammarExpr
    /// How many undeclared members may appear (`Int.max`: any number).
    var undeclaredLimit: Int
    /// Undeclared members counted beyond this are indistinguishable (see `lowerObject`).
    var undeclaredCap: Int
    var pointer: String
    /// Undeclared members of which the object must have one each (`SchemaFacts.witnesses`); only member
    /// sets write them.
    var witnesses: [GrammarExpr] = []
}

extension SchemaLowering {
    /// Whether `lowerObject` should build the any-order automaton for an object with these members:
    /// the option asks for it and the object has at most `maxMembers` candidate members.
    func wantsAnyOrder(_ members: [Member]) -> Bool {
        let maxMembers: Int
        switch options.propertyOrder {
        case .anyOrder(let m): maxMembers = m
        case .memberSets: maxMembers = JSONSchemaCompileOptions.PropertyOrder.defaultMaxMembers
        default: return false
        }
        let candidates = members.reduce(0) { $0 + ($1.forbidden ? 0 : 1) }
        return candidates <= min(maxMembers, 63)
    }

    /// Object members in any order. A state is (set of members written so far, number k of undeclared
    /// members written, capped as in `lowerObject`). From a state the object may close when every required
    /// member is present, every dependency of a present member is present and `minProperties` is reached
    /// (undeclared members counting as one at most); it may go on with any absent allowed member, or an
    /// undeclared one, while `maxProperties` permits. A declared member is never written twice because it
    /// is in the set, and the undeclared member's name excludes every declared name, so no declared key
    /// can repeat. Only states that can still close get a rule, so no path leads to a dead end.
    ///
    /// Each member's `"name": value` is one rule referenced from every state that may write it, so the
    /// value is not copied per state (the mask compiler decides whether to share or inline it). Returns nil
    /// (the caller keeps declared order) when those references would pass `limits.maxAnyOrderUnits`.
    mutating func lowerObjectAnyOrder(_ o: AnyOrderObject) throws(JSONSchemaCompileError) -> GrammarExpr? {
        struct State: Hashable { var present: UInt64; var k: Int }
        let n = o.members.count
        var slot: [Int] = []            // member index of each bit
        var bit = [Int](repeating: -1, count: n)
        for (i, m) in o.members.enumerated() where !m.forbidden { bit[i] = slot.count; slot.append(i) }
        var requiredBits: UInt64 = 0
        var impossible = false
        for (i, m) in o.members.enumerated() where m.required {
            if bit[i] < 0 { impossible = true } else { requiredBits |= 1 << UInt64(bit[i]) }
        }
        // Dependencies as bit pairs; a present member whose dependency is forbidden can never close, so
        // such a member is simply never written.
        var dependencyPairs: [(a: UInt64, b: UInt64)] = []
        var unwritable: UInt64 = 0
        for d in o.dependencies where bit[d.a] >= 0 {
            if bit[d.b] < 0 { unwritable |= 1 << UInt64(bit[d.a]) } else {
                dependencyPairs.append((1 << UInt64(bit[d.a]), 1 << UInt64(bit[d.b])))
            }
        }
        if impossible { return .nothing }

        let unlimited = o.undeclaredLimit == Int.max
        func count(_ s: State) -> Int { s.present.nonzeroBitCount }
        func canClose(_ s: State) -> Bool {
            guard s.present & requiredBits == requiredBits, count(s) + min(s.k, 1) >= o.minProperties else { return false }
            return dependencyPairs.allSatisfy { s.present & $0.a == 0 || s.present & $0.b != 0 }
        }
        func canAddOne(_ s: State) -> Bool { o.maxProperties.map { count(s) + s.k + 1 <= $0 } ?? true }
        /// Successors: (slot or -1 for an undeclared member, next state).
        func successors(_ s: State) -> [(Int, State)] {
            guard canAddOne(s) else { return [] }
            var out: [(Int, State)] = []
            for (b, _) in slot.enumerated() where s.present & (1 << UInt64(b)) == 0 && unwritable & (1 << UInt64(b)) == 0 {
                out.append((b, State(present: s.present | 1 << UInt64(b), k: s.k)))
            }
            if !o.undeclaredMember.isNothing && (unlimited || s.k < o.undeclaredLimit) {
                out.append((-1, State(present: s.present, k: min(s.k + 1, o.undeclaredCap))))
            }
            return out
        }

        // Every reachable state, breadth first, bounded by the object-state limit.
        let limit = options.limits.maxObjectStates
        let start = State(present: 0, k: 0)
        var states = [start]
        var seen: Set<State> = [start]
        var head = 0
        while head < states.count {
            let s = states[head]
            head += 1
            for (_, t) in successors(s) where !seen.contains(t) {
                guard states.count < limit else {
                    throw JSONSchemaCompileError(.tooComplex, keyword: "properties", pointer: o.pointer,
                                                 detail: "member automaton over \(limit) states (any order)")
                }
                seen.insert(t)
                states.append(t)
            }
        }
        // A state is live when it can close now or through a live successor. Every step adds a member or an
        // undeclared one (the only step that keeps the state is an undeclared member at the cap, which adds
        // nothing to liveness), so deciding states with more written first settles each successor in time.
        var live: [State: Bool] = [:]
        for s in states.sorted(by: { count($0) + $0.k > count($1) + $1.k }) {
            live[s] = canClose(s) || successors(s).contains { $0.1 != s && live[$0.1] == true }
        }
        guard live[start] == true else { return .nothing }
        // The mask compiler inlines small member rules into every state that writes them. Past the schema's
        // budget for such copies, the object keeps declared order (sound, and its grammar stays small).
        let memberCost = slot.map { anyOrderSizes.of(.seq([JSONText.quoted(o.members[$0].name), colon, o.members[$0].value]), in: grammar) }
        var total = 0
        for s in states where live[s] == true {
            for (b, t) in successors(s) where b >= 0 && live[t] == true { total += memberCost[b] }
        }
        if total > options.limits.maxAnyOrderUnits - anyOrderSpent { return nil }
        anyOrderSpent += total

        var memberRules: [Int: GrammarExpr] = [:]
        func memberRule(_ b: Int, _ me: inout SchemaLowering) -> GrammarExpr {
            if let r = memberRules[b] { return r }
            let m = o.members[slot[b]]
            let r = GrammarExpr.rule(me.grammar.addRule(name: "member:\(o.pointer)/\(m.name)",
                                                        body: .seq([JSONText.quoted(m.name), me.colon, m.value])))
            memberRules[b] = r
            return r
        }
        var stateRules: [State: RuleID] = [:]
        for s in states where live[s] == true {
            stateRules[s] = grammar.declareRule(name: "object:\(o.pointer)#\(String(s.present, radix: 16)).\(s.k)")
        }
        for s in states where live[s] == true {
            // The separator is written once per state, before the choice of member: copied per member it
            // would multiply the bounded-whitespace automata by the number of edges.
            let written = s.present != 0 || s.k > 0
            var next: [GrammarExpr] = []
            for (b, t) in successors(s) where live[t] == true {
                let member = b >= 0 ? memberRule(b, &self) : o.undeclaredMember
                next.append(.seq([member, .rule(stateRules[t]!)]))
            }
            grammar.define(stateRules[s]!, as: closeOrMore(written: written, canClose: canClose(s), more: .alt(next)))
        }
        return .seq([.literal("{"), ws, .rule(stateRules[start]!)])
    }
}

/// Approximate size of an expression as the mask compiler inlines it: bytes and byte sets count 1 each,
/// bounded repeats their body `max` times (they are unrolled), and a rule that stays a rule counts 1 —
/// a rule on a reference cycle, or one larger than `keptAbove` (the mask compiler keeps large shared rules
/// rather than copy them). Rule sizes are remembered across objects (a defined rule's body never changes);
/// a rule still being lowered (body not yet defined) is a recursion, so it counts 1 and is not remembered.
struct ExpandedSize: Sendable {
    var memo: [RuleID: Int] = [:]
    var onStack: Set<RuleID> = []
    var recursive: Set<RuleID> = []
    static let cap = 1 << 24
    static let keptAbove = 2_000

    mutating func of(_ e: GrammarExpr, in grammar: Grammar) -> Int {
        switch e {
        case .empty, .nothing: return 0
        case .bytes(let b): return b.count
        case .byteSet, .token: return 1
        case .tokenBudget(let body, _, let then): return min(Self.cap, of(body, in: grammar) + of(then, in: grammar))
        case .sequence(let xs), .choice(let xs):
            var t = 0
            for x in xs { t = min(Self.cap, t + of(x, in: grammar)); if t >= Self.cap { break } }
            return t
        case .repeat(let x, let lo, let hi):
            return min(Self.cap, of(x, in: grammar) * max(1, min(hi ?? lo, 4096)))
        case .rule(let r):
            if let m = memo[r] { return m }
            if onStack.contains(r) { recursive.insert(r); return 1 }
            if case .nothing = grammar[r].body { return 1 }
            onStack.insert(r)
            var v = of(grammar[r].body, in: grammar)
            onStack.remove(r)
            if recursive.contains(r) || v > Self.keptAbove { v = 1 }
            memo[r] = v
            return v
        }
    }
}
