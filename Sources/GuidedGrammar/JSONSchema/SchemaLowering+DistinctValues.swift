import GuidedSchema

/// `uniqueItems: true` over items that may be any JSON values (objects, numbers, arrays, mixed types):
/// the array as without `uniqueItems`, in a rule marked `distinctByValue`, whose items the token matcher
/// compares as values where each completes (`DistinctItems`), refusing the byte that completes a repeat.
///
/// Refusing that byte must never leave a parse with nothing to write (the mask never leads where no
/// valid completion exists), so the items must never run out: after any prefix of an item there must be
/// infinitely many distinct values to complete it with. `supplyOf` proves it from the schema,
/// one alternative at a time (a prefix of the union is a prefix of some alternative, whose completions
/// suffice):
/// - strings whose content language continues from every prefix (`{"type":"string"}`, `minLength`,
///   most patterns);
/// - numbers with no bound, step or digit limit (more fraction or exponent digits always give new
///   values, except after a zero's `e`, which the matcher decides there); integers with no upper bound, no step and no negative lower bound, where the one prefix
///   with a single completion, `0` (or `-0`), is decided at its first digit by the matcher;
/// - objects that admit undeclared members without limit (any name, any value, no `maxProperties`): a
///   fresh member can always be written before the `}`;
/// - arrays with no `maxItems` whose items are unconstrained;
/// - `true`, `false` and `null`, which the matcher decides at their first byte, beside some other
///   alternative that never runs out (so the item's first byte always has a choice left);
/// - at a position of its own (`prefixItems`, array-form `items`), items that are only `true`, `false`
///   or `null` where there are more of them than items before it: one is always left unwritten;
/// - listed strings that another alternative's endless strings also admit (`anyOf: [{enum: [...]},
///   {type: string}]`, known values or any string): every prefix of theirs goes on there.
/// Anything else (closed objects, bounded numbers, finite string languages beside other types, an
/// array of distinct values inside another's items) is refused, naming `uniqueItems` and why.
extension SchemaLowering {
    /// What the items of an array may be, for `supplyOf`.
    struct ItemSupply {
        /// Some alternative admits a value at all.
        var admitsSome = false
        /// Some alternative never runs out (a first byte always has a choice left).
        var endless = false
        /// Every alternative either never runs out or is decided at its first byte; nil when so, else why not.
        var failure: String? = nil
        /// No alternative admits non-integer numbers: the matcher decides `0` at its first digit.
        var integersOnlyNumbers = true
        /// Some alternative admits numbers.
        var admitsNumbers = false
        /// The literals (`true`, `false`, `null`) some alternative admits, each decided at its first byte.
        var literals: Set<String> = []
        /// Listed strings, and the string languages of alternatives that never run out: each listed string
        /// must be in one of those (`settleListedStrings`).
        var listedStrings: [String] = []
        var endlessStrings: [ByteDFA] = []

        /// Fails where some listed string is in no endless alternative's language (its prefixes could then
        /// run out).
        mutating func settleListedStrings() {
            guard failure == nil else { return }
            for s in listedStrings where !endlessStrings.contains(where: { $0.matches(JSONText.encodeContent(s)) }) {
                failure = "listed items other than true, false and null run out"
                return
            }
        }

        /// Whether an item drawn from this supply at position `index` (that many items before it) always
        /// has a distinct value left.
        func isLive(at index: Int) -> Bool { failure == nil && (!admitsSome || endless || literals.count > index) }
    }

    /// The array as without `uniqueItems`, marked `distinctByValue`, where each position's items never run
    /// out (`ItemSupply.isLive`): the positions of the prefix one by one, then the rest (up to `maxItems`).
    mutating func distinctValueArray(_ f: SchemaFacts, pointer: String) throws(JSONSchemaCompileError) -> GrammarExpr {
        func refuse(_ why: String) -> JSONSchemaCompileError {
            JSONSchemaCompileError(.unsupported, keyword: "uniqueItems", pointer: pointer,
                                   detail: "uniqueItems: true is enforced where items never run out of distinct values; \(why)")
        }
        let prefixCount = f.arrayParts.map(\.prefix.count).max() ?? 0
        let reachable = f.maxItems.map { min($0, prefixCount) } ?? prefixCount
        var admitsSome = false
        // Whether the positions that admit numbers admit integers only, or also others.
        var numberKinds: Set<Bool> = []
        // Position `index`'s item (nil: the positions after every prefix), as each array part reads it.
        func item(_ index: Int?) -> [Conjunct] {
            f.arrayParts.compactMap { part in
                if let i = index, i < part.prefix.count { return Conjunct(node: part.prefix[i], full: true) }
                return part.rest.map { Conjunct(node: $0, full: true) }
            }
        }
        // Each prefix position on its own, then the rest (nil) where `maxItems` leaves room for it, each with
        // the most items that may come before one of its items.
        var positions: [(index: Int?, before: Int)] = (0..<reachable).map { ($0, $0) }
        if f.maxItems.map({ $0 > prefixCount }) ?? true { positions.append((nil, f.maxItems.map { $0 - 1 } ?? Int.max)) }
        for (index, before) in positions {
            var supply = ItemSupply()
            try supplyOf(SchemaLowering.normalize(item(index)), into: &supply, depth: 0, pointer: pointer)
            supply.settleListedStrings()
            if let why = supply.failure { throw refuse(why) }
            guard supply.isLive(at: before) else {
                throw refuse(index.map { "item \($0) is only true, false or null, which \($0) items before it may use up" }
                             ?? "these items are only true, false or null")
            }
            admitsSome = admitsSome || supply.admitsSome
            if supply.admitsNumbers { numberKinds.insert(supply.integersOnlyNumbers) }
        }
        // The matcher decides a `0` at its digit for all items or for none: an integer-only position after
        // one that may write `0.0` would find its `0` repeated only where nothing else can follow it.
        guard numberKinds.count <= 1 else {
            throw refuse("positions of integers only beside positions of other numbers (a 0 could be left with no way on)")
        }
        let integersOnlyNumbers = numberKinds.first ?? true
        var plain = f
        plain.uniqueItems = nil
        // No item at all: `[]` is the only array, and it is distinct.
        guard admitsSome else { return try lowerArray(plain) }
        let body = try lowerArray(plain)
        let r = grammar.declareRule(name: "distinct:\(f.arrayPointer)")
        grammar.define(r, as: body)
        grammar.markDistinctValueItems(r, zeroIsDecided: integersOnlyNumbers)
        // The matcher tracks an array of values and, inside its items, arrays of distinct strings whose
        // strings never run out (no second array of values, no listed strings, no recursion).
        if reachesDistinctArray(from: body, allowingEndlessStrings: true) {
            throw refuse("inside the items, only arrays of distinct strings without listed values may have uniqueItems")
        }
        return .rule(r)
    }

    /// Adds what the conjunction `key` admits to `supply`, one alternative of its groups at a time (as
    /// `lowerDisjunctions` distributes them).
    private mutating func supplyOf(_ key: [Conjunct], into supply: inout ItemSupply, depth: Int, pointer: String) throws(JSONSchemaCompileError) {
        guard supply.failure == nil else { return }
        let (flat, facts) = try analyze(key)
        if flat.unsatisfiable || facts.unsatisfiable || facts.types.isEmpty { return }
        if flat.groups.isEmpty { return leafSupply(facts, key, into: &supply, pointer: pointer) }
        guard depth < 4 else { supply.failure = "the items' alternatives nest too deeply to check"; return }
        let base = flat.besideGroups
        var groups = flat.groups
        for gi in groups.indices where groups[gi].oneOf { groups[gi] = try exactlyOne(groups[gi], base: base) }
        var total = 1
        for g in groups { total *= g.alternatives.count }
        guard total <= 64 else { supply.failure = "the items have more than 64 alternatives to check"; return }
        for k in Self.combinations(of: groups, beside: base) {
            try supplyOf(SchemaLowering.normalize(k), into: &supply, depth: depth + 1, pointer: pointer)
        }
    }

    /// One alternative without groups, by its types.
    private mutating func leafSupply(_ f: SchemaFacts, _ key: [Conjunct], into supply: inout ItemSupply, pointer: String) {
        func fail(_ why: String) { supply.failure = why }
        supply.admitsSome = true
        if !f.negated.isEmpty { return fail("an item's negation is not exact") }
        if f.enumValues == nil {
            if f.types.contains(.boolean) { supply.literals.formUnion(["true", "false"]) }
            if f.types.contains(.null) { supply.literals.insert("null") }
        }
        if let listed = f.enumValues {
            // Listed true/false/null are decided at their first byte; other listed values run out.
            let admitted = listed.filter { f.types.contains(InstanceTypes(of: $0)) }
            for v in admitted {
                switch v {
                case .bool(let b): supply.literals.insert(b ? "true" : "false")
                case .null: supply.literals.insert("null")
                case .string(let s): supply.listedStrings.append(s)
                default: return fail("listed items other than true, false and null run out")
                }
            }
            return
        }
        if f.types.contains(.string) {
            var restricted = key
            restricted.append(Conjunct(node: 0, mode: .types, name: String(InstanceTypes.string.rawValue)))
            guard let language = try? stringLanguage(restricted, pointer: pointer) else {
                return fail("the strings these items may be are not known exactly")
            }
            if !language.isEmpty {
                guard language.continuesInfinitelyFromEveryPrefix else { return fail("some string items have finitely many completions") }
                supply.endless = true
                supply.endlessStrings.append(language)
            }
        }
        if !f.types.isDisjoint(with: .number) {
            guard f.upper == nil, f.multipleOf.isEmpty, f.notMultipleOf.isEmpty, options.maxNumberDigits == nil,
                  !f.excluded.contains(where: { if case .number = $0 { return true } else { return false } }) else {
                return fail("bounded numbers run out")
            }
            if f.types.contains(.fraction) {
                // Exponents: `5e-` over a lower bound has finitely many values.
                guard f.lower == nil else { return fail("bounded numbers run out") }
                supply.integersOnlyNumbers = false
            } else if let lower = f.lower, lower.value.isNegative || (lower.value.isZero && !lower.exclusive) {
                // `-` would lead to `-0` or a few negative integers only.
                return fail("integers with a lower bound of zero or below run out")
            }
            supply.admitsNumbers = true
            supply.endless = true
        }
        if f.types.contains(.object) {
            guard f.maxProperties == nil, f.propertyNames.isEmpty, options.maxUndeclaredProperties == .max else {
                return fail("objects with maxProperties, propertyNames or a limit on undeclared members run out")
            }
            // A fresh name is declared by no part, so every part's additionalProperties must admit its value.
            if options.additionalProperties != .allow && !f.objectParts.contains(where: { $0.additional != nil }) {
                return fail("objects without undeclared members run out")
            }
            for part in f.objectParts {
                if let a = part.additional, !admitsAnything(a) {
                    return fail("objects that limit undeclared members (additionalProperties) run out")
                }
                for p in part.patterns where !admitsAnything(p.node) {
                    return fail("objects whose patternProperties constrain undeclared members run out")
                }
            }
            supply.endless = true
        }
        if f.types.contains(.array) {
            guard f.maxItems == nil, f.contains.allSatisfy({ $0.max == nil }), f.uniqueItems == nil,
                  f.arrayParts.allSatisfy({ $0.rest == nil }) else {
                return fail("arrays with maxItems, maxContains, uniqueItems or constrained items run out")
            }
            supply.endless = true
        }
    }

    /// Whether schema location `node` admits every value: `true`, `{}`, or annotations only.
    func admitsAnything(_ node: Int) -> Bool {
        switch document[node].value {
        case .bool(let b): return b
        case .object(let o):
            let annotations: Set<String> = ["title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"]
            return o.keys.allSatisfy { annotations.contains($0) }
        default: return false
        }
    }

    /// Whether a rule marked `distinctStringItems` is reachable from `expr` (with
    /// `allowingEndlessStrings`, other than arrays of distinct strings without listed values or language).
    func reachesDistinctArray(from expr: GrammarExpr, allowingEndlessStrings: Bool = false) -> Bool {
        var seen = Set<Int>()
        var stack: [GrammarExpr] = [expr]
        while let e = stack.popLast() {
            switch e {
            case .rule(let r):
                guard seen.insert(r.index).inserted else { continue }
                let rule = grammar.rules[r.index]
                if rule.distinctStringItems {
                    let endless = !rule.distinctByValue && rule.distinctValues == nil && rule.distinctLanguage == nil
                    if !(allowingEndlessStrings && endless) { return true }
                }
                stack.append(grammar.rules[r.index].body)
            case .sequence(let parts), .choice(let parts): stack.append(contentsOf: parts)
            case .repeat(let inner, _, _): stack.append(inner)
            case .empty, .nothing, .bytes, .byteSet, .token, .tokenBudget: continue
            }
        }
        return false
    }
}
