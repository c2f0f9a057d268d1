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
    /// The instance types conjunction `key` admits as its merged facts bound them, less objects where a
    /// required member can have no value: its groups of several alternatives are left out, so this is an
    /// upper bound (all types when the conjunction cannot be analyzed, none when its facts are
    /// unsatisfiable).
    mutating func typeBound(_ key: [Conjunct]) -> InstanceTypes {
        guard let facts = boundingFacts(key) else { return .all }
        return typeBound(of: facts)
    }

    /// The types `facts` admit, less objects where a required member can have no value.
    mutating func typeBound(of facts: SchemaFacts) -> InstanceTypes {
        var types = facts.satisfiableTypes
        if types.contains(.object), requiresMemberWithoutValue(facts) { types.subtract(.object) }
        return types
    }

    /// The merged facts of `key`'s bounding analysis (unsatisfiable where its flattening is), or nil when
    /// it cannot be analyzed.
    mutating func boundingFacts(_ key: [Conjunct]) -> SchemaFacts? {
        guard let (flat, facts) = boundingAnalysis(key) else { return nil }
        var f = facts
        if flat.unsatisfiable { f.unsatisfiable = true }
        return f
    }

    /// The analysis of `key` with its groups of one alternative taken in: such a group is part of the
    /// conjunction (the negation of `if: {properties: {kind: ...}}` is one: the member present and its
    /// value negated), so its facts bound the types too. Nil when the conjunction cannot be analyzed.
    mutating func boundingAnalysis(_ key: [Conjunct]) -> (Flattened, SchemaFacts)? {
        guard var (flat, facts) = try? analyze(SchemaLowering.normalize(key)) else { return nil }
        // A folded alternative may bring one-alternative groups of its own; a few rounds bound the work
        // (the bound stays an upper bound wherever folding stops).
        for _ in 0..<4 {
            let single = flat.groups.filter { $0.alternatives.count == 1 }
            if flat.unsatisfiable || single.isEmpty { break }
            guard let folded = try? analyze(SchemaLowering.normalize(flat.besideGroups + single.flatMap { $0.alternatives[0] }))
            else { break }
            (flat, facts) = folded
        }
        return (flat, facts)
    }

    /// Whether `facts` require a member whose value no instance satisfies: the schemas that apply to it
    /// (its `properties` entries, the `patternProperties` it matches, else `additionalProperties`) have
    /// unsatisfiable facts or no satisfiable type. No object satisfies such facts. This is what an
    /// `if`/`then` chain over a discriminator needs: each `if` names the discriminator's value without
    /// requiring the member, its negation requires it, so of the 2^n combinations of n of them all but
    /// n + 1 require a member that must equal two constants, or equal one and differ from it. Lowered, each
    /// was an object rule over its own member conjunctions (256 of them for 8 `if`s: 66 ms), whose
    /// language the automaton found empty only afterwards. One level deep: the member's own bound.
    mutating func requiresMemberWithoutValue(_ facts: SchemaFacts) -> Bool {
        for name in facts.required {
            guard let nodes = try? memberNodes(facts, name), !nodes.isEmpty,
                  let (flat, member) = boundingAnalysis(nodes.map { Conjunct(node: $0, full: true) })
            else { continue }
            if flat.unsatisfiable || member.satisfiableTypes.isEmpty { return true }
        }
        return false
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

    /// For each group, each alternative's type bound within `types`: `admissibleCombinations` keeps the
    /// combinations whose bounds still meet.
    mutating func alternativeTypes(of groups: [DisjunctionGroup], within types: InstanceTypes) -> [[InstanceTypes]] {
        groups.map { g in g.alternatives.map { typeBound($0).intersection(types) } }
    }

    /// The combinations of `groups` beside `base` (one alternative of each) whose types meet within `types`
    /// (`bounds`: `alternativeTypes`) and whose conjunction `typeBound` does not find empty, in the order
    /// `combinations(of:beside:)` gives (the first group's choice varies fastest). Built depth first,
    /// the last group outermost: where there are more than `partialCheckFrom` combinations, a choice for
    /// the outer groups whose conjunction is already empty is not extended, since adding conjuncts only
    /// removes instances. n `if`/`then` pairs over one discriminator make 2^n combinations of which n + 1
    /// admit instances; a partial choice fails as soon as two of its `if`s disagree, so the search meets
    /// about n^2 conjunctions instead of 2^n (8 pairs: 256 analyses took 25 ms).
    ///
    /// With `limit`, the search gives up (nil) once more than `limit` combinations are admissible or its
    /// analyses have merged `workPerAlternative * limit` conjuncts: a product of groups past the
    /// alternatives limit is searched only for what it admits (ten `if`/`then` pairs over a
    /// discriminator: 1,024 combinations, 12 admit), within about the work of lowering `limit`
    /// alternatives (125 pairs would take 15,000 analyses of up to 125 conjuncts each).
    mutating func admissibleCombinations(of groups: [DisjunctionGroup], beside base: [Conjunct],
                                         bounds: [[InstanceTypes]], within types: InstanceTypes,
                                         limit: Int? = nil) -> [[Conjunct]]? {
        guard !groups.isEmpty else { return typeBound(base).isEmpty ? [] : [base] }
        // Whether there are more than `partialCheckFrom` combinations (counted only that far: past the
        // alternatives limit their number may overflow).
        var total = 1
        for g in groups where total <= Self.partialCheckFrom { total *= g.alternatives.count }
        var search = CombinationSearch(maxFound: limit, maxWork: limit.map { Self.workPerAlternative * $0 })
        // Partial choices are bounded only in a search past `partialCheckFrom` combinations: below it
        // each complete one is analysed anyway, and the alternatives' own facts would be extra work.
        let checkPartial = total > Self.partialCheckFrom
        let facts: [[SchemaFacts?]] = groups.map { g in g.alternatives.map { checkPartial ? boundingFacts($0) : nil } }
        extendCombination(groups.count - 1, base, checkPartial ? boundingFacts(base) : nil, types, of: groups, bounds: bounds,
                          facts: facts, checkPartial: checkPartial, search: &search)
        return search.gaveUp ? nil : search.found
    }

    /// Combinations up to which `admissibleCombinations` checks only complete ones.
    static let partialCheckFrom = 8

    /// Conjuncts a search past the alternatives limit may analyze, per alternative the limit allows.
    static let workPerAlternative = 32

    /// What `admissibleCombinations` found so far, and when it stops.
    struct CombinationSearch {
        var found: [[Conjunct]] = []
        /// Conjuncts analyzed so far: an analysis merges each of its conjuncts, so this is its cost.
        var work = 0
        let maxFound: Int?
        let maxWork: Int?
        var gaveUp = false

        init(maxFound: Int?, maxWork: Int?) {
            self.maxFound = maxFound
            self.maxWork = maxWork
        }

        /// Counts the analysis of `key`; false once past the limit.
        mutating func analyze(_ key: [Conjunct]) -> Bool {
            work += key.count
            if let m = maxWork, work > m { gaveUp = true }
            return !gaveUp
        }

        mutating func add(_ key: [Conjunct]) {
            found.append(key)
            if let m = maxFound, found.count > m { gaveUp = true }
        }
    }

    /// One level of the search: group `gi`'s alternatives added to the partial combination `key`, whose
    /// facts (`partial`: the meeting of its parts' bounding facts, `facts` for each alternative; nil
    /// where one could not be analyzed, or the search does not check partial choices) bound it without
    /// analysing it whole. A partial choice is cut where those facts admit no type (an upper bound, so
    /// nothing admissible is cut); a complete one is kept where its own analysis admits some
    /// (`typeBound`), as before.
    private mutating func extendCombination(_ gi: Int, _ key: [Conjunct], _ partial: SchemaFacts?, _ common: InstanceTypes,
                                            of groups: [DisjunctionGroup], bounds: [[InstanceTypes]], facts alternatives: [[SchemaFacts?]],
                                            checkPartial: Bool, search: inout CombinationSearch) {
        for (ai, alternative) in groups[gi].alternatives.enumerated() {
            if search.gaveUp { return }
            let meet = common.intersection(bounds[gi][ai])
            if meet.isEmpty { continue }
            let extended = key + alternative
            var facts: SchemaFacts? = nil
            if let p = partial, let own = alternatives[gi][ai] { facts = p.meeting(own) }
            if gi == 0 {
                guard search.analyze(extended) else { return }
                if let f = facts, typeBound(of: f).isEmpty { continue }
                if !typeBound(extended).isEmpty { search.add(extended) }
            } else if checkPartial {
                guard search.analyze(extended) else { return }
                let admits = facts.map { !typeBound(of: $0).isEmpty } ?? !typeBound(extended).isEmpty
                if admits {
                    extendCombination(gi - 1, extended, facts, meet, of: groups, bounds: bounds, facts: alternatives,
                                      checkPartial: checkPartial, search: &search)
                }
            } else {
                extendCombination(gi - 1, extended, facts, meet, of: groups, bounds: bounds, facts: alternatives,
                                  checkPartial: checkPartial, search: &search)
            }
        }
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
            // A listed value that a `not` excludes is no instance: `const: null` beside
            // `not: {const: null}` (an if/then chain over which members may be null) admits no type.
            // Every search and bound asks this: the scan stops once every remaining type is admitted, and
            // long exclusion lists (a `oneOf` of enums, each branch beside the others' negations) are
            // looked up in a set.
            var admitted = InstanceTypes()
            let excludedSet: Set<JSONValue>? = excluded.count > 8 ? Set(excluded) : nil
            for v in listed {
                let type = InstanceTypes(of: v)
                if admitted.contains(type) { continue }
                if !excluded.isEmpty, excludedSet?.contains(v) ?? excluded.contains(v) { continue }
                admitted.formUnion(type)
                if admitted.isSuperset(of: t) { break }
            }
            t.formIntersection(admitted)
        }
        if let max = maxLength, max < minLength { t.subtract(.string) }
        if let max = maxItems, max < minItems { t.subtract(.array) }
        if let max = maxProperties, max < Swift.max(minProperties, Set(required).count) { t.subtract(.object) }
        if required.contains(where: forbiddenKeys.contains) { t.subtract(.object) }
        if !someMembers.isEmpty { t.formIntersection(.object) }
        if let l = lower, let u = upper, u.value < l.value || (u.value == l.value && (u.exclusive || l.exclusive)) {
            t.subtract([.integer, .fraction])
        }
        return t
    }
}
