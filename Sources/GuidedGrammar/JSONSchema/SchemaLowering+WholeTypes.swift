import GuidedSchema

/// Conjuncts that hold for every value the rest of their conjunction admits, dropped before it is lowered.
///
/// Where a value must satisfy several schemas at once (a member both declared and matched by a
/// `patternProperties` entry, an object met with another through `allOf`), each combination of schemas is
/// a conjunction of its own, lowered once: a member named by three declarations and a pattern, nested a
/// few levels deep, makes thousands of them. Most end as strings, numbers or booleans, and then most of
/// their conjuncts say nothing: a `oneOf` of "a string, a number, a boolean or an object" and "an array
/// of those" accepts every string. `{type: string} ∧ that` is `{type: string}`, but as a conjunction of
/// its own it was distributed over the `oneOf`, its branches checked for overlap, and its rule built,
/// again for every combination it appeared in. Conjunct c is dropped where every instance of the rest R
/// satisfies it (R's types, as R's own analysis bounds them, are types c accepts wholly): c ∧ R is then R,
/// and one rule serves every conjunction that reduces to R.
extension SchemaLowering {
    /// `key` without the conjuncts that accept every instance of the rest; `key` itself when none can be
    /// dropped. Objects are never accepted wholesale (`wholeTypes`), so only conjunctions that cannot be
    /// objects are reduced. The types are bounded by the plain analyses (`satisfiableTypes`, groups left
    /// out), which the lowering makes anyway: the bounding analysis, which folds one-alternative groups
    /// into new analyses, made this check cost more than it saved on schemas whose conjunctions do not
    /// reduce.
    mutating func droppingWholeConjuncts(_ key: [Conjunct]) -> [Conjunct] {
        // Only conjunctions that would be distributed over `anyOf`/`oneOf` groups: one without groups is
        // lowered from its merged facts at once, and working out which of its conjuncts accept everything
        // (an analysis of each, that nothing else needs) cost more than the rule it would have shared.
        guard key.count > 1, let i = try? analysisSlot(key), !analyses[i].0.groups.isEmpty else { return key }
        let bound = analyses[i].1.satisfiableTypes
        guard !bound.isEmpty, !bound.contains(.object) else { return key }
        var rest: [Conjunct] = []
        var candidates: [(conjunct: Conjunct, whole: ConjunctWhole)] = []
        for c in key {
            if c.mode == .full || c.mode == .keywords {
                let w = conjunctWhole(c)
                if w.keepsNumberSpellings, w.types.isSuperset(of: bound) { candidates.append((c, w)); continue }
            }
            rest.append(c)
        }
        if candidates.isEmpty { return key }
        if rest.isEmpty {
            // Every conjunct accepts all the conjunction's types: one of them, the narrowest alone, stays.
            let narrowest = candidates.indices.min { a, b in
                candidates[a].whole.bound.rawValue.nonzeroBitCount < candidates[b].whole.bound.rawValue.nonzeroBitCount
            }!
            rest.append(candidates.remove(at: narrowest).conjunct)
            if candidates.isEmpty { return key }
        }
        // The candidates accept every type the whole conjunction admits; the rest without them may admit
        // more, and then they are all kept.
        let whole = candidates.reduce(InstanceTypes.all) { $0.intersection($1.whole.types) }
        let reduced = SchemaLowering.normalize(rest)
        guard let restBound = plainBound(reduced), restBound.isSubset(of: whole) else { return key }
        return reduced
    }

    /// The types `key`'s own analysis admits (`satisfiableTypes`, read in place), nil when it cannot be
    /// analyzed.
    mutating func plainBound(_ key: [Conjunct]) -> InstanceTypes? {
        guard let i = try? analysisSlot(key) else { return nil }
        return analyses[i].1.satisfiableTypes
    }

    /// What `droppingWholeConjuncts` asks of one conjunct, worked out once (every conjunction it is part
    /// of asks again).
    struct ConjunctWhole {
        /// The types it accepts wholly (`wholeTypes`).
        var types: InstanceTypes
        /// Its own bound (`plainBound`).
        var bound: InstanceTypes
        /// Whether dropping it leaves the spellings of numbers as they were: a conjunct that admits
        /// integers but no fractions (`type: integer`) is what makes the lowering write integers without
        /// `.0` (`numberValueLiteral`), so the rest alone would admit `1.0` where the conjunction admitted
        /// `1` only.
        var keepsNumberSpellings: Bool
    }

    mutating func conjunctWhole(_ c: Conjunct) -> ConjunctWhole {
        if let known = conjunctWholes[c] { return known }
        var w = ConjunctWhole(types: [], bound: .all, keepsNumberSpellings: false)
        if let i = try? analysisSlot([c]) {
            let types = analyses[i].1.types
            w.keepsNumberSpellings = !(types.contains(.integer) && !types.contains(.fraction))
            w.bound = analyses[i].1.satisfiableTypes
            w.types = wholeTypes([c], depth: 0)
        }
        conjunctWholes[c] = w
        return w
    }

    /// The instance types on which conjunction `key` accepts every value: a lower bound, empty where the
    /// analysis cannot tell. Never objects. Its `anyOf` groups accept a type where some branch accepts it
    /// wholly; its `oneOf` groups where one branch accepts it wholly and every other rejects it by type
    /// (`typeBound`), so that exactly one holds.
    mutating func wholeTypes(_ key: [Conjunct], depth: Int) -> InstanceTypes {
        let key = SchemaLowering.normalize(key)
        if let known = wholeTypesMemo[key] { return known }
        guard depth < Self.maxWholeTypesDepth else { return [] }
        // A conjunction met again while its own answer is being worked out (a recursive schema) is
        // answered "unsure" there.
        wholeTypesMemo[key] = []
        guard let (flat, f) = try? analyze(key), !flat.unsatisfiable, f.negated.isEmpty, f.enumValues == nil,
              f.someMembers.isEmpty, f.witnesses.isEmpty else { return [] }
        var whole = Self.typesWithoutKeywords(f)
        for g in flat.groups where !whole.isEmpty {
            let branches = g.alternatives.map { wholeTypes($0, depth: depth + 1) }
            var accepted = InstanceTypes()
            if g.oneOf {
                let bounds = g.alternatives.map { typeBound($0) }
                for (a, w) in branches.enumerated() {
                    var alone = w
                    for (b, t) in bounds.enumerated() where b != a { alone.subtract(t) }
                    accepted.formUnion(alone)
                }
            } else {
                for w in branches { accepted.formUnion(w) }
            }
            whole.formIntersection(accepted)
        }
        wholeTypesMemo[key] = whole
        return whole
    }

    /// Nesting of groups `wholeTypes` follows (each level a branch of the one above).
    static let maxWholeTypesDepth = 4

    /// The types `f` admits with no keyword of their kind (what `wholeTypes` and `universalTypes` start
    /// from): null and booleans not excluded, strings, numbers and arrays unconstrained. Objects never
    /// (their members are too many things to rule out).
    static func typesWithoutKeywords(_ f: SchemaFacts) -> InstanceTypes {
        let admitted = f.satisfiableTypes
        var u = InstanceTypes()
        if admitted.contains(.null), !f.excluded.contains(.null) { u.insert(.null) }
        if admitted.contains(.boolean), !f.excluded.contains(.bool(true)), !f.excluded.contains(.bool(false)) { u.insert(.boolean) }
        if admitted.contains(.string), f.minLength == 0, f.maxLength == nil, f.patterns.isEmpty, f.formats.isEmpty,
           f.negatedPatterns.isEmpty, f.negatedFormats.isEmpty, !f.excluded.contains(where: { $0.stringValue != nil }) { u.insert(.string) }
        let numbersFree = f.lower == nil && f.upper == nil && f.multipleOf.isEmpty && f.notMultipleOf.isEmpty
            && !f.excluded.contains(where: { if case .number = $0 { return true } else { return false } })
        if numbersFree { u.formUnion(admitted.intersection(.number)) }
        if admitted.contains(.array), f.arrayParts.isEmpty, f.minItems == 0, f.maxItems == nil, f.uniqueItems == nil, f.contains.isEmpty,
           !f.excluded.contains(where: { if case .array = $0 { return true } else { return false } }) { u.insert(.array) }
        return u
    }
}
