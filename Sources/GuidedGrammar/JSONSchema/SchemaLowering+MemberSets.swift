import GuidedSchema

extension SchemaLowering {
    /// Object members in any order, each declared member at most once, the set of members written kept
    /// by the mask compiler's automaton (`GrammarRule.tracksMembers`) instead of spelled out as 2^m
    /// grammar states. The object is one member-set rule: `{`, then either the closing rule or members
    /// separated by commas; each declared member is its name, in the object's own automaton, followed by
    /// a call (`: value`) carrying the member's bit, and the closing rule requires every required
    /// member's bit. Undeclared members carry no bit. Returns nil (the caller keeps other orders) for
    /// what it does not track: counts, dependencies, a finite limit on undeclared members, objects that
    /// admit no undeclared member, more than 64 candidates.
    mutating func lowerObjectMemberSet(_ o: AnyOrderObject) -> GrammarExpr? {
        // A separator is read as bytes before the next member's call (so the state after a member has no
        // member calls and the automaton makes member sets only as matchers reach them); it can always be
        // followed by something only when undeclared members may come.
        guard o.minProperties == 0, o.maxProperties == nil, o.dependencies.isEmpty,
              o.undeclaredLimit == Int.max, !o.undeclaredMember.isNothing else { return nil }
        let allowed = o.members.indices.filter { !o.members[$0].forbidden }
        guard allowed.count <= 64 else { return nil }
        if o.members.contains(where: { $0.required && $0.forbidden }) { return .nothing }
        var required: UInt64 = 0
        var choice: [GrammarExpr] = []
        for (bit, i) in allowed.enumerated() {
            let m = o.members[i]
            if m.required { required |= 1 << UInt64(bit) }
            // The name stays in the object's own automaton (one deterministic key position, as in
            // declared order); the call that carries the member's bit comes right after it.
            let a = grammar.addRule(name: "member:\(o.pointer)/\(m.name)", body: .seq([colon, m.value]), shared: true)
            grammar.setMemberGuard(a, bit: Int8(bit))
            choice.append(.seq([JSONText.quoted(m.name), .rule(a)]))
        }
        choice.append(o.undeclaredMember)
        let close = grammar.addRule(name: "close:\(o.pointer)", body: .literal("}"), shared: true)
        grammar.setMemberGuard(close, requires: required)
        let member = GrammarExpr.alt(choice)
        let body: GrammarExpr = .seq([.literal("{"), ws, .alt([
            .rule(close),
            .seq([member, .repeat(.seq([sep, member]), min: 0, max: nil), ws, .rule(close)]),
        ])])
        let object = grammar.addRule(name: "object:\(o.pointer)", body: body, shared: true)
        grammar.setMemberGuard(object, tracks: true)
        return .rule(object)
    }
}
