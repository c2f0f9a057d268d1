import GuidedSchema

/// Alternatives that cannot meet the rest of a conjunction, dropped before it is distributed.
///
/// A conjunction distributed over its `anyOf`/`oneOf` groups becomes one alternative per combination of
/// the groups' branches, and each combination is lowered (and each `oneOf` checked pairwise) before
/// anything notices that it admits no instance. Where several such schemas meet (a member whose value
/// must satisfy one schema per `patternProperties` entry and `properties` entry that names it, each a
/// `oneOf` of an object, a string, a number and an array of those) almost every combination asks for
/// two different types at once, and the combinations multiply level after level. A branch, or a
/// combination, whose types cannot meet the conjunction's is false for every instance of it: an `anyOf`
/// or `oneOf` (or `if`/`then`/`else` and dependency group) without it holds on exactly the same
/// instances, so dropping it changes no language.
extension SchemaLowering {
    /// The instance types conjunction `key` admits as its merged facts bound them: its own groups are left
    /// out, so this is an upper bound (all types when the conjunction cannot be analyzed, none when its
    /// facts are unsatisfiable).
    mutating func typeBound(_ key: [Conjunct]) -> InstanceTypes {
        guard let (flat, facts) = try? analyze(SchemaLowering.normalize(key)) else { return .all }
        return flat.unsatisfiable ? [] : facts.satisfiableTypes
    }

    /// `groups` without the alternatives whose types cannot meet `types` (the type bound of the rest of
    /// the conjunction); nil when a group loses every alternative (then no instance satisfies the
    /// conjunction). Each alternative is bounded alone, an analysis that every conjunction it appears in
    /// shares; what it contradicts in the rest of the conjunction is found per combination.
    mutating func droppingAlternatives(of groups: [DisjunctionGroup], outside types: InstanceTypes) -> [DisjunctionGroup]? {
        var out = groups
        for gi in out.indices {
            out[gi].alternatives.removeAll { typeBound($0).isDisjoint(with: types) }
            if out[gi].alternatives.isEmpty { return nil }
        }
        return out
    }

    /// For each group, each alternative's type bound within `types`: `combinations(of:beside:where:)` keeps
    /// the combinations whose bounds still meet.
    mutating func alternativeTypes(of groups: [DisjunctionGroup], within types: InstanceTypes) -> [[InstanceTypes]] {
        groups.map { g in g.alternatives.map { typeBound($0).intersection(types) } }
    }

    /// Whether the alternatives `choice` picks (one index per group) admit a common type.
    static func typesMeet(_ bounds: [[InstanceTypes]], _ choice: [Int], within types: InstanceTypes) -> Bool {
        var common = types
        for (gi, ai) in choice.enumerated() {
            common.formIntersection(bounds[gi][ai])
            if common.isEmpty { return false }
        }
        return true
    }
}

extension SchemaFacts {
    /// `types` without the types whose own keywords here already contradict each other (a member both
    /// required and forbidden, bounds that cross, listed values of other types): no instance of those
    /// types satisfies the facts. An upper bound still: what it cannot see (patterns, member values,
    /// negations) it leaves to the lowering.
    var satisfiableTypes: InstanceTypes {
        if unsatisfiable { return [] }
        var t = types
        if let listed = enumValues {
            var admitted = InstanceTypes()
            for v in listed { admitted.formUnion(InstanceTypes(of: v)) }
            t.formIntersection(admitted)
        }
        if let max = maxLength, max < minLength { t.subtract(.string) }
        if let max = maxItems, max < minItems { t.subtract(.array) }
        if let max = maxProperties, max < Swift.max(minProperties, Set(required).count) { t.subtract(.object) }
        if required.contains(where: forbiddenKeys.contains) { t.subtract(.object) }
        if let l = lower, let u = upper, u.value < l.value || (u.value == l.value && (u.exclusive || l.exclusive)) {
            t.subtract([.integer, .fraction])
        }
        return t
    }
}
