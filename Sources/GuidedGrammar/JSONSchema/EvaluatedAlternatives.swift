import GuidedSchema

/// What the in-place keywords of a schema location evaluate in an instance, for `unevaluatedProperties`
/// (names, name patterns, or every member) or `unevaluatedItems` (a prefix, the items a `contains`
/// schema matches, or every item). Larger sets only weaken the `unevaluated*` constraint, which is what
/// makes the alternatives below exact without negating branches (see `EvaluatedAlternative`).
struct EvaluatedSet: Hashable {
    var everything = false
    /// Properties: member names (`properties`) and name patterns (`patternProperties`).
    var names: [String] = []
    var patterns: [String] = []
    /// Items: how many leading items (`prefixItems`, draft 2019-09's array `items`), and the locations of
    /// the `contains` schemas whose matching items count as evaluated (2020-12).
    var prefix = 0
    var contains: [String] = []

    static let nothing = EvaluatedSet()
    static let all = EvaluatedSet(everything: true)

    var isEmpty: Bool { !everything && names.isEmpty && patterns.isEmpty && prefix == 0 && contains.isEmpty }

    func union(_ o: EvaluatedSet) -> EvaluatedSet {
        if everything || o.everything { return .all }
        var u = self
        for n in o.names where !u.names.contains(n) { u.names.append(n) }
        for p in o.patterns where !u.patterns.contains(p) { u.patterns.append(p) }
        u.prefix = max(prefix, o.prefix)
        for c in o.contains where !u.contains.contains(c) { u.contains.append(c) }
        return u
    }

    /// Whether everything `o` evaluates, this set evaluates too (syntactically: equal patterns only).
    func covers(_ o: EvaluatedSet) -> Bool {
        if everything { return true }
        if o.everything { return false }
        return o.names.allSatisfy(names.contains) && o.patterns.allSatisfy(patterns.contains)
            && o.prefix <= prefix && o.contains.allSatisfy(contains.contains)
    }
}

/// A condition on the instance, tested by a schema location of the document.
enum EvaluationGuard: Hashable, Comparable {
    /// The instance is valid against the location at this pointer.
    case holds(String)
    /// The instance is not valid against it (the `else` side of an `if`).
    case fails(String)
    /// The instance is an object with this member (a `dependentSchemas` entry applies).
    case has(String)
}

/// One way a location may be satisfied, with what it then evaluates: for every instance valid against
/// the location, each alternative whose guards hold evaluates no more than the instance's real evaluated
/// set, and at least one alternative whose guards hold evaluates exactly that set. Since a larger set
/// only weakens `unevaluated*`, the keyword holds exactly when it holds for some alternative whose
/// guards hold: an `anyOf` then needs no negated branches (its alternatives are the non-empty subsets
/// of passing branches, and the full set of passing branches is one of them).
struct EvaluatedAlternative: Hashable {
    var guards: [EvaluationGuard]
    var evaluated: EvaluatedSet

    static let unconditional = EvaluatedAlternative(guards: [], evaluated: .nothing)

    /// Both hold: guards and sets joined.
    func and(_ o: EvaluatedAlternative) -> EvaluatedAlternative {
        var g = guards
        for x in o.guards where !g.contains(x) { g.append(x) }
        g.sort()
        return EvaluatedAlternative(guards: g, evaluated: evaluated.union(o.evaluated))
    }

    func guarded(by g: EvaluationGuard) -> EvaluatedAlternative {
        // An alternative that evaluates nothing needs no guard: it is never larger than the real set.
        if evaluated.isEmpty { return .unconditional }
        return and(EvaluatedAlternative(guards: [g], evaluated: .nothing))
    }
}

extension Array where Element == EvaluatedAlternative {
    /// Every pairing of one alternative from each side.
    func and(_ other: [EvaluatedAlternative]) -> [EvaluatedAlternative] {
        var out: [EvaluatedAlternative] = []
        for a in self { for b in other { out.append(a.and(b)) } }
        return out.pruned()
    }

    /// Without duplicates, and without alternatives another makes redundant: one with a subset of its
    /// guards that evaluates at least as much (whenever the first applies, the second applies and
    /// weakens the keyword at least as far).
    func pruned() -> [EvaluatedAlternative] {
        var out: [EvaluatedAlternative] = []
        for a in self {
            if out.contains(where: { b in b.evaluated.covers(a.evaluated) && b.guards.allSatisfy(a.guards.contains) }) { continue }
            out.removeAll { b in a.evaluated.covers(b.evaluated) && a.guards.allSatisfy(b.guards.contains) }
            out.append(a)
        }
        return out
    }
}
