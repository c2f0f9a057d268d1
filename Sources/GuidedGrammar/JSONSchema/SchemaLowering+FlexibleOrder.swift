import GuidedSchema

extension SchemaLowering {
    /// Objects with more candidate members keep declared order only: a second order costs up to about twice
    /// the automaton of one, and schemas with dozens of members (Kubernetes, Washington Post) are where
    /// compile time goes.
    static let flexibleMaxMembers = 16

    /// The member orders a `.flexible` object accepts, as permutations of member indices: declared order,
    /// and when it differs, the required members first in the order `required` lists them, then the others
    /// in declared order. (An array keeps its order through every JSON tool; an object's keys do not: a
    /// schema that went through a serializer sorting keys, as Go maps and `sort_keys` do, still says in
    /// `required` how its author ordered the members that matter most.) Objects of more than
    /// `flexibleMaxMembers` candidate members keep declared order only.
    func flexibleOrders(_ members: [Member], required: [String]) -> [[Int]] {
        let declared = Array(members.indices)
        var index: [String: Int] = [:]
        for (i, m) in members.enumerated() { index[m.name] = i }
        var first: [Int] = []
        for name in required { if let i = index[name], !first.contains(i) { first.append(i) } }
        let requiredFirst = first + declared.filter { !first.contains($0) }
        let candidates = members.reduce(0) { $0 + ($1.forbidden ? 0 : 1) }
        guard requiredFirst != declared, candidates <= Self.flexibleMaxMembers else { return [declared] }
        return [declared, requiredFirst]
    }

    /// Object members in any of a few fixed orders (`orders`, permutations of member indices), undeclared
    /// members after the declared ones as in declared order, with `required`, `min/maxProperties` and
    /// `dependentRequired` exact.
    ///
    /// While the members written so far are a subsequence of several orders whose remaining parts differ,
    /// the state ("multi") is the last declared member written and the set of orders still followed, and
    /// each member that some order can write next is an edge: deterministic in the member written, so the
    /// matcher follows one parse, not one per order (a union of per-order automata would double its stacks
    /// at every nesting level while the orders agree). Once one order is left (or the orders left go on
    /// alike), the state is a position in that order, as in declared order: each member present or absent
    /// in turn ("chain" states), so the grammar stays linear in the number of members; the separator is
    /// written once per position, in the "fresh" state reached right after a member. No member repeats:
    /// every order writes each member once, and the members written are a subsequence of every order
    /// still followed.
    mutating func lowerObjectFlexible(_ o: AnyOrderObject, orders: [[Int]]) throws(JSONSchemaCompileError) -> GrammarExpr {
        enum Kind: UInt8 { case multi, fresh, chain }
        /// `at`: the last declared member written (multi, -1 if none), or the next position in the one
        /// order followed (fresh, chain). Chain states write no separator: the fresh state before them did.
        struct State: Hashable { var kind: Kind; var alive: UInt32; var at: Int; var c: Int; var mask: UInt64; var k: Int }
        let n = o.members.count
        var position = [[Int]](repeating: [Int](repeating: 0, count: n), count: orders.count)
        for (v, order) in orders.enumerated() { for (p, x) in order.enumerated() { position[v][x] = p } }
        // Presence bits of the members linked by dependencies (-1: not tracked), and who requires whom.
        var tracked = [Int](repeating: -1, count: n)
        var trackedCount = 0
        var requiredBy = [[Int]](repeating: [], count: n)
        for d in o.dependencies {
            for x in [d.a, d.b] where tracked[x] < 0 { tracked[x] = trackedCount; trackedCount += 1 }
            if d.a != d.b { requiredBy[d.b].append(d.a) }
        }
        guard trackedCount <= 60 else {
            throw JSONSchemaCompileError(.tooComplex, keyword: "dependentRequired", pointer: o.pointer, detail: "too many dependent names")
        }
        func present(_ mask: UInt64, _ x: Int) -> Bool { tracked[x] >= 0 && mask & (1 << UInt64(tracked[x])) != 0 }
        func adding(_ mask: UInt64, _ x: Int) -> UInt64 { tracked[x] >= 0 ? mask | 1 << UInt64(tracked[x]) : mask }
        /// Whether member x may stay absent, given what is present.
        func skippable(_ x: Int, _ mask: UInt64) -> Bool {
            !o.members[x].required && !requiredBy[x].contains { present(mask, $0) }
        }
        /// Whether member x may be written at position `at` of order v: allowed, and each member it
        /// depends on present already when it comes earlier, still writable when it comes later.
        func admits(_ x: Int, _ v: Int, _ at: Int, _ mask: UInt64) -> Bool {
            guard !o.members[x].forbidden else { return false }
            for d in o.dependencies where d.a == x && d.b != x {
                if position[v][d.b] < at { if !present(mask, d.b) { return false } }
                else if o.members[d.b].forbidden { return false }
            }
            return true
        }
        let cap = max(o.minProperties, (o.maxProperties ?? 0) + 1, 1)
        let unlimited = o.undeclaredLimit == Int.max
        func follows(_ alive: UInt32, _ v: Int) -> Bool { alive & (1 << UInt32(v)) != 0 }
        func firstOrder(_ alive: UInt32) -> Int { alive.trailingZeroBitCount }
        func nextPosition(_ s: State, _ v: Int) -> Int { s.at < 0 ? 0 : position[v][s.at] + 1 }
        func canAddOne(_ s: State) -> Bool { o.maxProperties.map { s.c + s.k + 1 <= $0 } ?? true }
        func minimumMet(_ s: State) -> Bool { s.c + min(s.k, 1) >= o.minProperties }
        /// With no maximum and no limit on undeclared members, their count matters no more once a declared
        /// member is written and `minProperties` is met without them (as in `lowerObject`).
        func folded(_ s: State) -> State {
            var t = s
            if o.maxProperties == nil, unlimited, t.c > 0, t.c >= o.minProperties { t.k = 0 }
            return t
        }
        /// The state after writing member x while following the orders in `alive`.
        func after(_ x: Int, alive: UInt32, c: Int, mask: UInt64, k: Int) -> State {
            let v0 = firstOrder(alive), p0 = position[v0][x] + 1
            let alike = orders.indices.allSatisfy { v in
                !follows(alive, v) || orders[v][(position[v][x] + 1)...] == orders[v0][p0...]
            }
            if alike { return folded(State(kind: .fresh, alive: 1 << UInt32(v0), at: p0, c: c, mask: mask, k: k)) }
            return folded(State(kind: .multi, alive: alive, at: x, c: c, mask: mask, k: k))
        }

        // From `sameTail[v]` on, order v ends exactly as order 0 does (both end in the same members in the
        // same order: for required-first, the optional members after the last required one), so a
        // position there in order v is the same state as in order 0: one chain for both tails.
        var sameTail = [Int](repeating: 0, count: orders.count)
        for v in orders.indices {
            var q = n
            while q > 0 && orders[v][q - 1] == orders[0][q - 1] { q -= 1 }
            sameTail[v] = q
        }
        func canonical(_ s: State) -> State {
            guard s.kind != .multi, s.at >= sameTail[firstOrder(s.alive)] else { return s }
            var t = s
            t.alive = 1
            return t
        }

        var stateRules: [State: RuleID] = [:]
        var pending: [(State, RuleID)] = []
        let limit = options.limits.maxObjectStates
        var overflow = false
        func ruleFor(_ state: State, _ me: inout SchemaLowering) -> GrammarExpr {
            let s = canonical(state)
            if let r = stateRules[s] { return .rule(r) }
            if stateRules.count >= limit { overflow = true; return .nothing }
            let r = me.grammar.declareRule(name: "object:\(o.pointer)~\(s.kind.rawValue).\(s.alive).\(s.at).\(s.c).\(String(s.mask, radix: 16)).\(s.k)")
            stateRules[s] = r
            pending.append((s, r))
            return .rule(r)
        }
        // Member x written, then the state after it: one rule for every state that reaches the same
        // successor, so the member's name, colon and value are spelled once per successor, not per edge.
        struct Present: Hashable { var member: Int; var next: State }
        var presentRules: [Present: RuleID] = [:]
        func presentRule(_ x: Int, _ successor: State, _ me: inout SchemaLowering) -> GrammarExpr {
            let next = canonical(successor)
            if let r = presentRules[Present(member: x, next: next)] { return .rule(r) }
            let m = o.members[x]
            let r = me.grammar.addRule(name: "member:\(o.pointer)~\(x)",
                                       body: .seq([JSONText.quoted(m.name), me.colon, m.value, ruleFor(next, &me)]))
            presentRules[Present(member: x, next: next)] = r
            return .rule(r)
        }
        /// An undeclared member, after every declared member the order `v` still writes (as in declared
        /// order: undeclared members last), then the fresh state at the end of that order.
        func undeclared(_ s: State, order v: Int, _ me: inout SchemaLowering) -> GrammarExpr {
            guard !o.undeclaredMember.isNothing, canAddOne(s), unlimited || s.k < o.undeclaredLimit else { return .nothing }
            let t = State(kind: .fresh, alive: 1 << UInt32(v), at: n, c: s.c, mask: s.mask, k: min(s.k + 1, o.undeclaredCap))
            return .seq([o.undeclaredMember, ruleFor(folded(t), &me)])
        }
        func body(_ s: State, _ me: inout SchemaLowering) -> GrammarExpr {
            let written = s.c > 0 || s.k > 0
            switch s.kind {
            case .multi:
                var next: [GrammarExpr] = []
                if canAddOne(s) {
                    // Per order, the members it can write next: from its position on, up to and including
                    // the first one that may not stay absent.
                    var aliveAfter = [UInt32](repeating: 0, count: n)
                    for v in orders.indices where follows(s.alive, v) {
                        var p = nextPosition(s, v)
                        while p < n {
                            let x = orders[v][p]
                            if admits(x, v, p, s.mask) { aliveAfter[x] |= 1 << UInt32(v) }
                            if !skippable(x, s.mask) { break }
                            p += 1
                        }
                    }
                    for x in 0..<n where aliveAfter[x] != 0 {
                        let t = after(x, alive: aliveAfter[x], c: min(s.c + 1, cap), mask: adding(s.mask, x), k: s.k)
                        next.append(presentRule(x, t, &me))
                    }
                }
                // Undeclared members once some order followed has nothing left to write.
                let ends = orders.indices.filter { v in follows(s.alive, v) && (nextPosition(s, v)..<n).allSatisfy { skippable(orders[v][$0], s.mask) } }
                if let v = ends.first { next.append(undeclared(s, order: v, &me)) }
                return me.closeOrMore(written: written, canClose: minimumMet(s) && !ends.isEmpty, more: .alt(next))
            case .fresh:
                // The separator (or the closing brace) once here, for whatever comes next: the next declared
                // member after any absent ones, or past the last, an undeclared one.
                var chain = s
                chain.kind = .chain
                let closes = minimumMet(s) && (s.at..<n).allSatisfy { skippable(orders[firstOrder(s.alive)][$0], s.mask) }
                // (The rule first: calling a method of `me` with `&me` in its arguments would copy `me`,
                // and with it the grammar's rule array, once per state.)
                let more = ruleFor(chain, &me)
                return me.closeOrMore(written: written, canClose: closes, more: more)
            case .chain:
                let v = firstOrder(s.alive)
                guard s.at < n else { return undeclared(s, order: v, &me) }
                let x = orders[v][s.at]
                var alts: [GrammarExpr] = []
                if canAddOne(s), admits(x, v, s.at, s.mask) {
                    let next = folded(State(kind: .fresh, alive: s.alive, at: s.at + 1, c: min(s.c + 1, cap), mask: adding(s.mask, x), k: s.k))
                    alts.append(presentRule(x, next, &me))
                }
                if skippable(x, s.mask) {
                    var skip = s
                    skip.at += 1
                    alts.append(ruleFor(skip, &me))
                }
                return .alt(alts)
            }
        }
        let start = ruleFor(State(kind: .multi, alive: (1 << UInt32(orders.count)) - 1, at: -1, c: 0, mask: 0, k: 0), &self)
        while let (s, r) = pending.popLast() {
            grammar.define(r, as: body(s, &self))
            if overflow { break }
        }
        if overflow {
            throw JSONSchemaCompileError(.tooComplex, keyword: "properties", pointer: o.pointer, detail: "member automaton over \(limit) states (flexible order)")
        }
        return .seq([.literal("{"), ws, start])
    }
}
