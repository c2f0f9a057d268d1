import GuidedSchema

/// The rules of member-set objects, each made once: one rule per list of shapes (a union of objects
/// whose members come in any order), the member calls that carry a member's bit, and the closing rules
/// that require members written (`GrammarRule` member guards, enforced by the mask engine's automaton).
///
/// The same shapes, member values and closing conditions recur across a schema (every tool's
/// `arguments`, every alternative of a union that agrees on a member): kept here, they are one rule each,
/// and the matcher goes on with one stack where they agree.
struct MemberSetRules {
    /// Whitespace and separators of the compile's options (`SchemaLowering.ws`, `sep`, `colon`).
    let ws: GrammarExpr
    let sep: GrammarExpr
    let colon: GrammarExpr
    private var rules: [ShapesKey: RuleID] = [:]
    /// The shapes of each member-set rule without counts, by rule index (what `joiningMemberSets` joins).
    private(set) var shapesByRule: [Int: [MemberSetShape]] = [:]
    private var calls: [MemberValueCall: RuleID] = [:]
    private var values: [PrefixHashedExpr: RuleID] = [:]
    private var witnessCalls: [MemberCallKey: RuleID] = [:]
    private var closes: [CloseKey: RuleID] = [:]

    /// The most declared members one member-set object tracks (its bits: `GrammarRule.memberBit`). Past
    /// the first 64 the automaton keeps the members written in an interned set beside its state's first
    /// word (`GrammarAutomaton`), so the bound only keeps that set's cost in reason.
    static let maximumMembers = 4096

    init(ws: GrammarExpr, sep: GrammarExpr, colon: GrammarExpr) {
        self.ws = ws; self.sep = sep; self.colon = colon
    }

    /// One member-set rule for the union of `shapes` (each an object whose members come in any order):
    /// `{`, then the members and closing of any one shape. A name has one bit in all shapes, so the
    /// shapes share one key position and one set of members written. Nil beyond 64 distinct names where
    /// the shapes are several or have counts or witnesses (their conditions are kept in the set's first
    /// word), and beyond `maximumMembers` names otherwise.
    mutating func rule(_ shapes: [MemberSetShape], pointer: String, grammar: inout Grammar) -> RuleID? {
        let wideAllowed = shapes.count == 1 && shapes[0].counts == nil && shapes[0].witnesses.isEmpty
        let limit = wideAllowed ? Self.maximumMembers : 64
        var bitOf: [String: Int16] = [:]
        if wideAllowed && shapes[0].members.count > 64 {
            // Dependencies are masks of the first word (`MemberDependency`): the members they name take
            // its bits first, the others follow in declared order.
            for d in shapes[0].dependencies {
                for name in [d.trigger] + d.requires where bitOf[name] == nil { bitOf[name] = Int16(bitOf.count) }
            }
            guard bitOf.count <= 64 else { return nil }
        }
        for s in shapes {
            for m in s.members where bitOf[m.name] == nil {
                guard bitOf.count < limit else { return nil }
                bitOf[m.name] = Int16(bitOf.count)
            }
        }
        let witnessed = shapes.contains { !$0.witnesses.isEmpty }
        if witnessed {
            // A witness's bit is its shape's own: such a shape is a rule alone (`joiningMemberSets` skips it).
            guard shapes.count == 1, bitOf.count + shapes[0].witnesses.count <= 64, shapes[0].counts == nil else { return nil }
        }
        let key = ShapesKey(shapes)
        if let known = rules[key] { return known }
        let counted = shapes.contains { $0.counts != nil }
        precondition(!counted || (shapes.count == 1 && bitOf.count <= MemberCounts.maximumDeclared),
                     "an object with counts is a member-set rule of its own, within the declared bits")
        var bodies: [GrammarExpr] = []
        var memberCounts: MemberCounts? = nil
        for s in shapes {
            var required: UInt64 = 0
            var requiredBeyond: [Int16] = []
            var choice: [GrammarExpr] = []
            for m in s.members {
                let bit = bitOf[m.name]!
                if m.required {
                    if bit < 64 { required |= 1 << UInt64(bit) } else { requiredBeyond.append(bit) }
                }
                // The name stays in the object's own automaton (one deterministic key position, as in
                // declared order); the call that carries the member's bit comes right after it.
                choice.append(.seq([JSONText.quoted(m.name), .rule(memberCall(m.value, bit: bit, name: "member:\(pointer)/\(m.name)", grammar: &grammar))]))
            }
            for (i, w) in s.witnesses.enumerated() {
                let bit = Int16(bitOf.count + i)
                required |= 1 << UInt64(bit)
                choice.append(.rule(witnessCall(w, bit: bit, pointer: pointer, grammar: &grammar)))
            }
            choice.append(counted ? Self.countedUndeclared(s.undeclared, pointer: pointer, grammar: &grammar) : s.undeclared)
            let dependencies = s.dependencies.map { d in
                MemberDependency(trigger: 1 << UInt64(bitOf[d.trigger]!), requires: d.requires.reduce(0) { $0 | 1 << UInt64(bitOf[$1]!) })
            }
            if let c = s.counts {
                memberCounts = MemberCounts(minimum: c.minimum, maximum: c.maximum, undeclaredLimit: c.undeclaredLimit,
                                            required: required, dependencies: dependencies)
            }
            // The `}` is the object's own byte and the guarded call comes after it (see `closeRule`).
            let close = GrammarExpr.seq([.literal("}"), .rule(closeRule(CloseKey(required: required, requiredBeyond: requiredBeyond.sorted(),
                                                                                  dependencies: dependencies, minimum: s.counts?.minimum ?? 0),
                                                                         grammar: &grammar))])
            let member = GrammarExpr.alt(choice)
            bodies.append(.alt([
                close,
                .seq([member, .repeat(.seq([sep, member]), min: 0, max: nil), ws, close]),
            ]))
        }
        // The `{` is the caller's: the rule begins after it (see `reference`).
        let object = grammar.addRule(name: "object:\(pointer)", body: .seq([ws, .alt(bodies)]), shared: true)
        grammar.setMemberGuard(object, tracks: true, counts: memberCounts)
        rules[key] = object
        if !counted && !witnessed { shapesByRule[object.index] = shapes }
        return object
    }

    /// A member-set object as a value: its `{`, then the call of its rule. Called before the brace, the
    /// rule's call edge sat in every state of the whitespace run ahead of it (an array's items, a
    /// member's value), and a first visit there walked every whitespace token through the general step
    /// of several stacks.
    static func reference(_ object: RuleID) -> GrammarExpr { .seq([.literal("{"), .rule(object)]) }

    /// The undeclared member of an object with counts as a call the member-set rule counts
    /// (`GrammarRule.countsAsUndeclared`): the lowering's rule of undeclared members (shared by the
    /// objects that admit the same ones, and ignored as a count by those without counts).
    private static func countedUndeclared(_ undeclared: GrammarExpr, pointer: String, grammar: inout Grammar) -> GrammarExpr {
        if undeclared.isNothing { return undeclared }
        // The lowering's rule begins after the name's opening quote, which the object reads
        // (`SchemaLowering.undeclaredRules`): the call, and with it the count, comes right after it.
        let quoted = undeclared.callAfter("\"")
        let call = quoted.map(GrammarExpr.rule) ?? undeclared
        let r: RuleID
        if case .rule(let existing) = call, !grammar.rules[existing.index].hasMemberGuard || grammar.rules[existing.index].countsAsUndeclared {
            r = existing
        } else {
            r = grammar.addRule(name: "undeclared:\(pointer)", body: call, shared: true)
        }
        grammar.setMemberGuard(r, countsAsUndeclared: true)
        return quoted != nil ? .seq([.literal("\""), .rule(r)]) : .rule(r)
    }

    /// The rule writing member `bit`, made once per value and bit: a call of the value's rule
    /// (`valueRule`), so that the member carries its bit while its bytes are read by states that every
    /// member with that value shares.
    private mutating func memberCall(_ value: GrammarExpr, bit: Int16, name: String, grammar: inout Grammar) -> RuleID {
        let key = MemberValueCall(value: valueRule(value, grammar: &grammar), bit: bit)
        if let r = calls[key] { return r }
        let r = grammar.addRule(name: name, body: .rule(key.value), shared: true)
        grammar.setMemberGuard(r, bit: bit)
        calls[key] = r
        return r
    }

    /// The rule `: value`, made once per value and kept a rule (`GrammarRule.shared`). Inlined into each
    /// member's rule, the members of one type (the strings of a tool's arguments) each had automaton
    /// states of their own for the colon, the quotes and the text, and the first visit of each member
    /// made them and walked the vocabulary from them again: those states held about a third of the mask
    /// time of maskbench-dev's function-calling schemas.
    private mutating func valueRule(_ value: GrammarExpr, grammar: inout Grammar) -> RuleID {
        let key = PrefixHashedExpr(value)
        if let r = values[key] { return r }
        let r = grammar.addRule(name: "member-value", body: .seq([colon, value]), shared: true)
        values[key] = r
        return r
    }

    /// The rule writing one witness member (name and value) under `bit`. Its name is also an undeclared
    /// name the object's plain undeclared members may take; a repeated key is harmless, because any
    /// member of the witness's region is what the negation asks for.
    private mutating func witnessCall(_ member: GrammarExpr, bit: Int16, pointer: String, grammar: inout Grammar) -> RuleID {
        let key = MemberCallKey(value: member, bit: bit)
        if let r = witnessCalls[key] { return r }
        let r = grammar.addRule(name: "witness:\(pointer)", body: member, shared: true)
        grammar.setMemberGuard(r, bit: bit)
        witnessCalls[key] = r
        return r
    }

    /// The end of an object allowed once the members of `required` are written and the dependencies of
    /// those written are met, made once per condition: an empty rule whose guarded call follows the `}`
    /// (a `}` without a usable call leads nowhere and is not allowed). Called before the `}`, its call
    /// edge sat in every state of the whitespace run after a value, and a first visit of such a
    /// position walked each of those states as a configuration of several stacks.
    private mutating func closeRule(_ key: CloseKey, grammar: inout Grammar) -> RuleID {
        if let r = closes[key] { return r }
        let name = "close:\(String(key.required, radix: 16))" + (key.requiredBeyond.isEmpty ? "" : "+\(key.requiredBeyond.count) beyond")
            + (key.dependencies.isEmpty ? "" : "+\(key.dependencies.count) dependencies")
            + (key.minimum == 0 ? "" : "+\(key.minimum) members")
        let r = grammar.addRule(name: name, body: .empty, shared: true)
        grammar.setMemberGuard(r, requires: key.required, requiresBeyond: key.requiredBeyond, dependencies: key.dependencies,
                               minimum: key.minimum)
        closes[key] = r
        return r
    }
}

/// A member's rule: the rule of its value (`: value`) and the member's bit. The same value under the same
/// bit is one rule wherever it is used, so the alternatives of a union that agree on a member continue as
/// one stack after it.
private struct MemberValueCall: Hashable {
    var value: RuleID
    var bit: Int16
}

/// The shapes of a member-set rule as its memo key, hashed once (see `PrefixHashedExpr`).
private struct ShapesKey: Hashable {
    let shapes: [MemberSetShape]
    private let shapesHash: Int

    init(_ shapes: [MemberSetShape]) {
        self.shapes = shapes
        shapesHash = shapes.hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(shapesHash) }

    static func == (a: ShapesKey, b: ShapesKey) -> Bool { a.shapesHash == b.shapesHash && a.shapes == b.shapes }
}
