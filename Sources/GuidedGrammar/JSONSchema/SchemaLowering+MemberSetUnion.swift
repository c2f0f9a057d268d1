/// Alternatives that are member-set objects, joined into one member-set rule.
///
/// A disjunction whose alternatives are objects (a `oneOf` of object shapes, or the alternatives that
/// `if`/`then` and `allOf` multiply out) would otherwise be one member-set rule per alternative: a
/// matcher at their first key position holds one stack per alternative, and its first token mask walks
/// the vocabulary once per stack (milliseconds each with dozens of names). Joined, the alternatives'
/// names are one key position, and alternatives that agree on a member's value go on as one stack.
extension SchemaLowering {
    /// `alternatives` with the member-set objects among them (also inside the rules of alternatives)
    /// joined, in groups of at most 64 distinct names; the other parts are kept as they are.
    mutating func joiningMemberSets(_ alternatives: [GrammarExpr]) -> [GrammarExpr] {
        var objects: [Int] = []
        var rest: [GrammarExpr] = []
        for a in alternatives { splitMemberSets(a, objects: &objects, rest: &rest, depth: 0) }
        guard objects.count > 1 else { return alternatives }
        var groups: [[MemberSetShape]] = []
        var names: Set<String> = []
        for o in objects {
            let shapes = memberSets.shapesByRule[o]!
            let added = Set(shapes.flatMap { $0.members.map(\.name) }).subtracting(names)
            if groups.isEmpty || names.count + added.count > 64 {
                groups.append([])
                names = []
            }
            groups[groups.count - 1] += shapes
            names.formUnion(shapes.flatMap { $0.members.map(\.name) })
        }
        var joined: [GrammarExpr] = []
        for g in groups {
            // Within 64 names by construction, but for an object of more names, which is a group alone
            // (its own rule again, as is every single object's group).
            guard let r = memberSetRule(g, pointer: "union") else { return alternatives }
            joined.append(MemberSetRules.reference(r))
        }
        var seen: Set<PrefixHashedExpr> = []
        return (joined + rest).filter { seen.insert(PrefixHashedExpr($0)).inserted }
    }

    /// Sorts the parts of `e` into member-set objects and the rest, looking through choices and the
    /// bodies of plain rules (a rule stands for its body; one still being defined is kept whole).
    private func splitMemberSets(_ e: GrammarExpr, objects: inout [Int], rest: inout [GrammarExpr], depth: Int) {
        // A member-set object is always its `{` then the call of its rule (`MemberSetRules.reference`).
        if let r = e.callAfter("{"), memberSets.shapesByRule[r.index] != nil {
            if !objects.contains(r.index) { objects.append(r.index) }
            return
        }
        switch e {
        case .rule(let r):
            let rule = grammar.rules[r.index]
            guard depth < 4, !rule.shared, !rule.hasMemberGuard,
                  !rule.body.isNothing else { rest.append(e); return }
            splitMemberSets(rule.body, objects: &objects, rest: &rest, depth: depth + 1)
        case .choice(let parts):
            for p in parts { splitMemberSets(p, objects: &objects, rest: &rest, depth: depth) }
        default:
            rest.append(e)
        }
    }
}
