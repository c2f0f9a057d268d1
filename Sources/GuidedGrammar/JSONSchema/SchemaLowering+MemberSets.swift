import GuidedSchema

/// One object of a member-set rule: its allowed members (name, value, required) and its undeclared
/// member (`.nothing` if none may appear).
struct MemberSetShape: Hashable {
    struct Member: Hashable {
        var name: String
        var value: GrammarExpr
        var required: Bool

        // Shapes key the member-set rules, and a union's shapes are looked up whole: values hashed by
        // their first nodes (`hashPrefix`), not walked through at every lookup.
        func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(required)
            value.hashPrefix(into: &hasher)
        }
    }
    var members: [Member]
    var undeclared: GrammarExpr
    /// `dependentRequired` / array-form `dependencies`: once `trigger` is written, every name of
    /// `requires` must be before the object closes.
    var dependencies: [Dependency] = []
    /// `minProperties`, `maxProperties` and a finite number of undeclared members (nil: none of them).
    /// Such an object is a member-set rule of its own, never joined with others (`joiningMemberSets`):
    /// the counts belong to the rule, so alternatives with different counts cannot share one.
    var counts: Counts? = nil
    /// Undeclared members (`"name": value`) of which the object must write one each: each a call with a
    /// bit of its own that the closing rule requires. Never with counts, never joined with other shapes.
    var witnesses: [GrammarExpr] = []

    struct Dependency: Hashable {
        var trigger: String
        var requires: [String]
    }

    struct Counts: Hashable {
        var minimum: Int
        var maximum: Int?
        var undeclaredLimit: Int?
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(members)
        undeclared.hashPrefix(into: &hasher)
        hasher.combine(dependencies)
        hasher.combine(counts)
        for w in witnesses { w.hashPrefix(into: &hasher) }
    }
}

/// A closing rule's condition: the members it requires, its dependencies (as bits), and how many members
/// it needs (`minProperties`).
struct CloseKey: Hashable {
    var required: UInt64
    var requiredBeyond: [Int16] = []
    var dependencies: [MemberDependency]
    var minimum: Int = 0
}

/// A witness member's call with its bit: the same member under the same bit is one rule wherever it is
/// used (`MemberSetRules.witnessCall`).
struct MemberCallKey: Hashable {
    var value: GrammarExpr
    var bit: Int16

    func hash(into hasher: inout Hasher) {
        value.hashPrefix(into: &hasher)
        hasher.combine(bit)
    }
}

extension SchemaLowering {
    /// Object members in any order, each declared member at most once, the set of members written kept
    /// by the mask compiler's automaton (`GrammarRule.tracksMembers`) instead of spelled out as 2^m
    /// grammar states. The object is one member-set rule: `{`, then either the closing rule or members
    /// separated by commas; each declared member is its name, in the object's own automaton, followed by
    /// a call (`: value`) carrying the member's bit, and the closing rule requires every required
    /// member's bit. Undeclared members carry no bit. Returns nil (the caller keeps other orders) for
    /// what it does not track: more than 64 candidates beside witnesses or more than 64 members named by
    /// dependencies, more than `MemberSetRules.maximumMembers` otherwise, and counts (`minProperties`, `maxProperties`, a finite
    /// limit on undeclared members) beside a cycle of dependencies, past 56 candidates or past
    /// `MemberCounts.largestBound`.
    /// Dependencies are kept as conditions of the closing rule: they never make a dead end,
    /// because every member a written one depends on is a candidate still to be written (a member that
    /// depends on a forbidden one is forbidden too). Counts are kept by the rule (`MemberCounts`): the
    /// closing rule needs `minProperties` members, and a member is written only while the object can
    /// still close within the counts with it.
    ///
    /// A separator is read as bytes before the next member's call (so the state after a member has no
    /// member calls and the automaton makes member sets only as matchers reach them). Where nothing may
    /// follow it (every member written, no undeclared member allowed), the mask compiler leaves the
    /// separator out (`MemberFutures`).
    mutating func lowerObjectMemberSet(_ o: AnyOrderObject) -> GrammarExpr? {
        var counts: MemberSetShape.Counts? = nil
        var undeclaredLimit = o.undeclaredMember.isNothing || o.undeclaredLimit == Int.max ? nil : o.undeclaredLimit
        if let l = undeclaredLimit, let m = o.maxProperties, l >= m { undeclaredLimit = nil }   // the maximum rules
        if o.minProperties > 0 || o.maxProperties != nil || undeclaredLimit != nil {
            guard o.members.filter({ !$0.forbidden }).count <= MemberCounts.maximumDeclared,
                  (o.maxProperties ?? 0) <= MemberCounts.largestBound, (undeclaredLimit ?? 0) <= MemberCounts.largestBound,
                  !Self.dependsMutually(o) else { return nil }
            counts = .init(minimum: o.minProperties, maximum: o.maxProperties, undeclaredLimit: undeclaredLimit)
        }
        // A member that depends on one that can never be written can never be written either.
        var forbidden = o.members.map(\.forbidden)
        var changed = true
        while changed {
            changed = false
            for d in o.dependencies where forbidden[d.b] && !forbidden[d.a] { forbidden[d.a] = true; changed = true }
        }
        if o.members.indices.contains(where: { o.members[$0].required && forbidden[$0] }) { return .nothing }
        var dependencies: [MemberSetShape.Dependency] = []
        for d in o.dependencies where !forbidden[d.a] {
            let trigger = o.members[d.a].name, needed = o.members[d.b].name
            if let k = dependencies.firstIndex(where: { $0.trigger == trigger }) {
                if !dependencies[k].requires.contains(needed) { dependencies[k].requires.append(needed) }
            } else {
                dependencies.append(.init(trigger: trigger, requires: [needed]))
            }
        }
        let shape = MemberSetShape(
            members: o.members.indices.filter { !forbidden[$0] }.map {
                .init(name: o.members[$0].name, value: unwrapped(o.members[$0].value), required: o.members[$0].required)
            },
            undeclared: o.undeclaredMember, dependencies: dependencies, counts: counts, witnesses: o.witnesses)
        if !o.witnesses.isEmpty && counts != nil { return nil }
        return memberSetRule([shape], pointer: o.pointer).map(MemberSetRules.reference)
    }

    /// Whether two writable members of `o` depend on each other (directly or through others): a cycle of
    /// dependencies, whose members can only come together, so not every number of members is reachable
    /// and `MemberCounts.canClose` would not be exact.
    static func dependsMutually(_ o: AnyOrderObject) -> Bool {
        // Members that may be written, numbered compactly (at most `MemberCounts.maximumDeclared`: the
        // caller checks first).
        var index: [Int: Int] = [:]
        for (i, m) in o.members.enumerated() where !m.forbidden { index[i] = index.count }
        var reach = [UInt64](repeating: 0, count: index.count)
        for d in o.dependencies {
            guard let a = index[d.a], let b = index[d.b] else { continue }
            reach[a] |= 1 << UInt64(b)
        }
        var grew = true
        while grew {
            grew = false
            for i in reach.indices where reach[i] != 0 {
                var r = reach[i], rest = reach[i]
                while rest != 0 {
                    let j = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    r |= reach[j]
                }
                if r != reach[i] { reach[i] = r; grew = true }
            }
        }
        return reach.indices.contains { reach[$0] & (1 << UInt64($0)) != 0 }
    }

    /// `e` with the rules of schema locations replaced by their bodies: each tool's `query`, `limit` and
    /// `mode` are rules of their own (one per location) around the same string, number and enum
    /// expressions, and the objects whose members have the same values then have the same shape (one
    /// member-set rule for 500 tools' `arguments`, not 500, and one stack at each of their keys). Only
    /// the lowering's per-location rules (`locationRules`, never guarded) are opened, one level per
    /// step; a rule still being defined (its body `.nothing` yet) is kept.
    func unwrapped(_ e: GrammarExpr) -> GrammarExpr {
        var e = e
        for _ in 0..<8 {
            guard case .rule(let r) = e, locationRules.contains(r.index), !grammar.rules[r.index].body.isNothing else { break }
            e = grammar.rules[r.index].body
        }
        return e
    }

    /// One member-set rule for the union of `shapes` (`MemberSetRules.rule`).
    mutating func memberSetRule(_ shapes: [MemberSetShape], pointer: String) -> RuleID? {
        memberSets.rule(shapes, pointer: pointer, grammar: &grammar)
    }
}
