import GuidedSchema

/// A three-valued verdict: the checker answers `.unknown` rather than guess.
enum Verdict: Equatable {
    case valid, invalid, unknown

    static func && (a: Verdict, b: Verdict) -> Verdict {
        if a == .invalid || b == .invalid { return .invalid }
        if a == .unknown || b == .unknown { return .unknown }
        return .valid
    }
}

extension SchemaLowering {
    /// Whether a concrete value is valid against a conjunction of schema locations. Used to filter `enum`
    /// members by their siblings, to test property names, and to prove `oneOf` branches disjoint; where
    /// it cannot be sure (e.g. `pattern` before regexes are supported) it says `.unknown`.
    mutating func check(_ v: JSONValue, _ key: [Conjunct], depth: Int) -> Verdict {
        guard depth < 48 else { return .unknown }
        let key = SchemaLowering.normalize(key)
        if key.isEmpty { return .valid }
        guard let (flat, facts) = try? analyze(key) else { return .unknown }
        if flat.unsatisfiable || facts.unsatisfiable { return .invalid }
        var result = checkFacts(v, facts, depth: depth)
        if result == .invalid { return .invalid }
        for g in flat.groups {
            var valid = 0, unknown = 0
            for a in g.alternatives {
                switch check(v, a, depth: depth + 1) {
                case .valid: valid += 1
                case .unknown: unknown += 1
                case .invalid: break
                }
            }
            let r: Verdict
            if g.oneOf {
                r = unknown > 0 ? (valid > 1 ? .invalid : .unknown) : (valid == 1 ? .valid : .invalid)
            } else {
                r = valid > 0 ? .valid : (unknown > 0 ? .unknown : .invalid)
            }
            result = result && r
            if result == .invalid { return .invalid }
        }
        return result
    }

    mutating func checkFacts(_ v: JSONValue, _ f: SchemaFacts, depth: Int) -> Verdict {
        var r = checkPositiveFacts(v, f, depth: depth)
        for n in f.negated where r != .invalid {
            switch check(v, [Conjunct(node: n, full: true)], depth: depth + 1) {
            case .valid: r = .invalid
            case .unknown: r = r && .unknown
            case .invalid: break
            }
        }
        return r
    }

    mutating func checkPositiveFacts(_ v: JSONValue, _ f: SchemaFacts, depth: Int) -> Verdict {
        if f.unsatisfiable { return .invalid }
        guard f.types.contains(InstanceTypes(of: v)) else { return .invalid }
        if let e = f.enumValues, !e.contains(v) { return .invalid }
        if f.excluded.contains(v) { return .invalid }
        switch v {
        case .null, .bool: return .valid
        case .number(let n): return checkNumber(n, f)
        case .string(let s):
            let count = s.unicodeScalars.count
            if count < f.minLength { return .invalid }
            if let m = f.maxLength, count > m { return .invalid }
            var r = Verdict.valid
            for p in f.patterns {
                switch patternMatches(p.source, s) {
                case true?: continue
                case false?: return .invalid
                case nil: r = .unknown
                }
            }
            for p in f.negatedPatterns {
                switch patternMatches(p.source, s) {
                case true?: return .invalid
                case false?: continue
                case nil: r = .unknown
                }
            }
            for fm in f.formats {
                let e: GrammarExpr
                switch JSONFormats.support(fm.name) {
                case .enforced(let x): e = x
                case .undefined where options.unknownFormats == .ignore: continue
                case .undefined, .refused: r = .unknown; continue
                }
                if !GrammarMembership.accepts(Grammar(root: e), JSONText.encodeContent(s)) { r = .unknown }
            }
            for fm in f.negatedFormats {
                // Only formats with an exact language are negated (`complementKeyword`).
                guard case .enforced(let e) = JSONFormats.support(fm.name) else { r = .unknown; continue }
                if GrammarMembership.accepts(Grammar(root: e), JSONText.encodeContent(s)) { r = .unknown }
            }
            return r
        case .array(let items):
            if items.count < f.minItems { return .invalid }
            if let m = f.maxItems, items.count > m { return .invalid }
            // JSON equality (numbers by value, objects regardless of member order), as `JSONValue`'s.
            if f.uniqueItems != nil, Set(items).count < items.count { return .invalid }
            var r = Verdict.valid
            for (j, x) in items.enumerated() {
                var nodes: [Int] = []
                for part in f.arrayParts {
                    if j < part.prefix.count { nodes.append(part.prefix[j]) } else if let rest = part.rest { nodes.append(rest) }
                }
                r = r && check(x, nodes.map { Conjunct(node: $0, full: true) }, depth: depth + 1)
                if r == .invalid { return .invalid }
            }
            for c in f.contains {
                var valid = 0, unknown = 0
                for x in items {
                    switch check(x, [Conjunct(node: c.node, full: true)], depth: depth + 1) {
                    case .valid: valid += 1
                    case .unknown: unknown += 1
                    case .invalid: break
                    }
                }
                if valid + unknown < c.min { return .invalid }
                if let mx = c.max, valid > mx { return .invalid }
                if valid < c.min || (c.max != nil && valid + unknown > c.max!) { r = r && .unknown }
            }
            return r
        case .object(let o):
            if o.count < f.minProperties { return .invalid }
            if let m = f.maxProperties, o.count > m { return .invalid }
            for r in f.required where o[r] == nil { return .invalid }
            for k in f.forbiddenKeys where o[k] != nil { return .invalid }
            for d in f.dependentRequired where o[d.key] != nil {
                for r in d.required where o[r] == nil { return .invalid }
            }
            var r = Verdict.valid
            for (k, x) in o {
                guard let nodes = try? memberNodes(f, k) else { r = r && .unknown; continue }
                r = r && check(x, nodes.map { Conjunct(node: $0, full: true) }, depth: depth + 1)
                for pn in f.propertyNames { r = r && check(.string(k), [Conjunct(node: pn, full: true)], depth: depth + 1) }
                if r == .invalid { return .invalid }
            }
            for need in f.someMembers {
                r = r && checkSomeMember(o, need, depth: depth)
                if r == .invalid { return .invalid }
            }
            return r
        }
    }

    func checkNumber(_ n: JSONNumber, _ f: SchemaFacts) -> Verdict {
        if let l = f.lower, n < l.value || (l.exclusive && n == l.value) { return .invalid }
        if let u = f.upper, n > u.value || (u.exclusive && n == u.value) { return .invalid }
        var r = Verdict.valid
        for m in f.multipleOf { r = r && SchemaLowering.isMultiple(n, of: m.value) }
        for m in f.notMultipleOf {
            switch SchemaLowering.isMultiple(n, of: m.value) {
            case .valid: return .invalid
            case .invalid: continue
            case .unknown: r = r && .unknown
            }
        }
        return r
    }

    /// Exact `multipleOf` on decimal values.
    static func isMultiple(_ n: JSONNumber, of m: JSONNumber) -> Verdict {
        if n.isZero { return .valid }
        // n = dn·10^en, m = dm·10^em; dn has no trailing zeros.
        if n.exponent < m.exponent { return .invalid }
        guard m.digits.count <= 17, let dm = Int(m.digits), dm > 0 else { return .unknown }
        var r = 0
        for c in n.digits.utf8 { r = (r * 10 + Int(c - 48)) % dm }
        let shift = n.exponent - m.exponent
        if shift > 100_000 { return .unknown }
        for _ in 0..<shift { r = (r * 10) % dm; if r == 0 { break } }
        return r == 0 ? .valid : .invalid
    }

    // MARK: oneOf

    /// Overlapping branches whose negations merge into a branch's facts (each one more automaton to
    /// subtract from its strings, say), at most.
    static let maxMergedNegations = 16

    /// Overlapping branches whose negations may split into alternatives, per branch. Each multiplies the
    /// branch's alternatives; the compile's whole work stays bounded by `Limits.maxAnalyzedConjuncts`.
    /// (3 until session 37; 8 lets a branch of a nine-branch `oneOf` overlap all the others.)
    static let maxSplitNegations = 8

    /// `oneOf` as a union of disjoint alternatives: branch i together with the negation of every branch j
    /// not provably disjoint from it. Pairwise disjoint branches need no negation (oneOf = anyOf); an
    /// overlapping branch's negation must be exact, or lowering refuses naming the `oneOf`.
    ///
    /// Overlaps are found per instance type first. Where branch j accepts every value of a type (a branch
    /// of object keywords only accepts every string, say), no value of that type can satisfy branch i
    /// alone, so branch i loses that type instead of taking j's negation. That makes the common
    /// "untyped branches told apart by `required`" form exact.
    mutating func exactlyOne(_ g: DisjunctionGroup, base: [Conjunct]) throws(JSONSchemaCompileError) -> DisjunctionGroup {
        let keys = g.alternatives.map { base + $0 }
        var out = g
        out.oneOf = false
        out.keyword = "oneOf"
        out.alternatives = []
        var universal: [InstanceTypes?] = Array(repeating: nil, count: keys.count)
        func notDisjoint(_ i: Int, _ j: Int) -> JSONSchemaCompileError {
            JSONSchemaCompileError(.notExact, keyword: "oneOf", pointer: document[g.holder].pointer,
                                   detail: "branches \(i) and \(j) are not provably disjoint")
        }
        for i in 0..<keys.count {
            var negations = 0, merged = 0
            var types: InstanceTypes? = nil
            var dropped = InstanceTypes()
            // Branch i may become several conjunctions (a negation that is a disjunction of key tests).
            var variants: [[Conjunct]] = [g.alternatives[i]]
            for j in 0..<keys.count where j != i {
                // Pairs grow with the square of the branches (500 tools: 250,000 overlap tests).
                try checkBudget(pointer: document[g.holder].pointer)
                // Branches disjoint alone are disjoint beside any base: one test per pair of branches, not
                // one per conjunction the group is distributed in (each a new analysis of base + branch).
                let alone = try branchOverlap(g.alternatives[i], g.alternatives[j])
                if alone.isEmpty { continue }
                var overlap = try overlapTypes(keys[i], keys[j], depth: 0).intersection(alone)
                if overlap.isEmpty { continue }
                if universal[j] == nil { universal[j] = universalTypes(g.alternatives[j]) }
                let both = overlap.intersection(universal[j]!)
                dropped.formUnion(both)
                overlap.subtract(both)
                if overlap.isEmpty { continue }
                if overlap == .object, let (_, fa) = try? analyze(SchemaLowering.normalize(keys[i])),
                   let tests = objectNegation(given: fa, of: g.alternatives[j], holder: g.holder),
                   variants.count * max(tests.count, 1) <= 64 {
                    // No test: every object of branch i satisfies j too, so branch i keeps its other types.
                    if tests.isEmpty { dropped.insert(.object) } else { variants = variants.flatMap { v in tests.map { v + $0 } } }
                    continue
                }
                // Each negation may split into alternatives: a branch overlapping many others is refused
                // rather than expanded into a product. A negation that is one exact complement (`not` of a
                // lone `pattern`, `format`, `const`, ...) adds facts and no alternative, so it counts only
                // against `maxMergedNegations` (five unanchored `pattern`s that may all match one string).
                // Branch j as one schema location (nil: a conjunction of several).
                let whole = g.alternatives[j].count == 1 && g.alternatives[j][0].mode == .full ? g.alternatives[j][0].node : nil
                var probe = SchemaFacts()
                let negation: Conjunct
                if let node = whole, try complement(node, into: &probe, depth: 0) {
                    merged += 1
                    negation = Conjunct(node: node, mode: .negated)
                } else if let node = whole, let kw = try loneKeywordBesideType(node, within: typesOf(keys[i], &types)) {
                    // `{type: string, pattern: p}` against a branch of strings only: not(pattern) there.
                    merged += 1
                    negation = Conjunct(node: node, mode: .negatedKeyword, name: kw)
                } else {
                    negations += 1
                    guard let node = whole else { throw notDisjoint(i, j) }
                    negation = Conjunct(node: node, mode: .negated)
                }
                guard negations <= Self.maxSplitNegations, merged <= Self.maxMergedNegations else { throw notDisjoint(i, j) }
                for v in variants.indices { variants[v].append(negation) }
            }
            if !dropped.isEmpty {
                let kept = Conjunct(node: g.holder, mode: .types, name: String(InstanceTypes.all.subtracting(dropped).rawValue))
                for v in variants.indices { variants[v].append(kept) }
            }
            out.alternatives += variants
        }
        return out
    }

    /// `overlapTypes` of two branches alone (an upper bound of their overlap beside anything else), kept
    /// in `branchOverlaps`.
    mutating func branchOverlap(_ a: [Conjunct], _ b: [Conjunct]) throws(JSONSchemaCompileError) -> InstanceTypes {
        let pair = [a, b]
        if let known = branchOverlaps[pair] { return known }
        let t = try overlapTypes(a, b, depth: 0)
        branchOverlaps[pair] = t
        return t
    }

    /// The instance types conjunction `key` allows (all when it cannot be analyzed), kept in `memo`.
    mutating func typesOf(_ key: [Conjunct], _ memo: inout InstanceTypes?) -> InstanceTypes {
        if let t = memo { return t }
        let t = (try? analyze(SchemaLowering.normalize(key)))?.1.types ?? .all
        memo = t
        return t
    }

    /// The one keyword K of schema location `id` besides a `type` that covers `types`, when K has an
    /// exact complement: for instances of those types `id` holds exactly when K does, so within them
    /// not(`id`) is the complement of K alone (`{type: string, pattern: p}` against strings). Nil
    /// otherwise.
    mutating func loneKeywordBesideType(_ id: Int, within types: InstanceTypes) throws(JSONSchemaCompileError) -> String? {
        guard !types.isEmpty, case .object(let o) = document[id].value else { return nil }
        let draft = document.draft
        if draft.level <= JSONSchemaDraft.draft7.level, o["$ref"] != nil { return nil }
        let effective = o.entries.filter { SchemaKeywords.isEffective($0.key, draft: draft) }
        guard effective.count == 2, let typeValue = o["type"], let allowed = InstanceTypes(typeKeyword: typeValue),
              allowed.isSuperset(of: types), let (kw, v) = effective.first(where: { $0.key != "type" }) else { return nil }
        var probe = SchemaFacts()
        guard try complementKeyword(id, kw, v, o, into: &probe, depth: 0) else { return nil }
        return kw
    }

    /// For objects satisfying `a`, the failure of the conjunction `key` as a disjunction of member tests
    /// (each alternative a list of `present`/`absent` conjuncts; `[[]]`: `key` always fails; `[]`: never).
    /// Exact only in one common shape, and nil otherwise: both sides closed (`additionalProperties: false`,
    /// no `patternProperties`), `key` with no object keyword besides `properties` and `required`, and every
    /// member both may have constrained in `a` at least as much as in `key` (the same schemas). Then an
    /// object of `a` fails `key` exactly when it has a member `key` does not declare, or lacks one `key`
    /// requires.
    mutating func objectNegation(given a: SchemaFacts, of key: [Conjunct], holder: Int) -> [[Conjunct]]? {
        guard let (flat, b) = try? analyze(SchemaLowering.normalize(key)), flat.groups.isEmpty, !flat.unsatisfiable,
              !b.unsatisfiable, b.negated.isEmpty, b.enumValues == nil, b.minProperties == 0, b.maxProperties == nil,
              b.dependentRequired.isEmpty, b.propertyNames.isEmpty, b.forbiddenKeys.isEmpty,
              let namesA = closedNames(a), let namesB = closedNames(b), b.objectParts.count == 1 else { return nil }
        for k in namesA where namesB.contains(k) {
            guard let na = try? memberNodes(a, k), let nb = try? memberNodes(b, k) else { return nil }
            for n in nb where !na.contains(where: { sameSchema($0, n) }) { return nil }
        }
        var tests: [[Conjunct]] = []
        for k in namesA where !namesB.contains(k) { tests.append([Conjunct(node: holder, mode: .present, name: k)]) }
        for r in b.required where !a.required.contains(r) {
            if !namesA.contains(r) { return [[]] }
            tests.append([Conjunct(node: holder, mode: .absent, name: r)])
        }
        return tests
    }

    /// The member names an object may have under `f` when some part closes it (`additionalProperties:
    /// false`) and no part has `patternProperties`; nil otherwise.
    func closedNames(_ f: SchemaFacts) -> [String]? {
        guard !f.objectParts.isEmpty, f.objectParts.allSatisfy({ $0.patterns.isEmpty }) else { return nil }
        var names: [String]? = nil
        for part in f.objectParts {
            guard let n = part.additional, case .bool(false) = document[n].value else { continue }
            let declared = part.properties.map(\.name)
            names = names.map { $0.filter { declared.contains($0) } } ?? declared
        }
        return names
    }

    /// Two locations with the same schema text and base URI (so their `$ref`s resolve alike).
    func sameSchema(_ x: Int, _ y: Int) -> Bool {
        x == y || (document[x].value == document[y].value && document[x].baseURI == document[y].baseURI)
    }

    /// The types on which `key` accepts every value (empty when unsure): its own keywords only, so a
    /// conjunction with groups, negations or listed values is unsure (`wholeTypes` follows groups).
    mutating func universalTypes(_ key: [Conjunct]) -> InstanceTypes {
        guard let (flat, f) = try? analyze(SchemaLowering.normalize(key)) else { return [] }
        if flat.unsatisfiable || f.unsatisfiable || !flat.groups.isEmpty || !f.negated.isEmpty || f.enumValues != nil { return [] }
        return Self.typesWithoutKeywords(f)
    }

    /// True only when no instance can satisfy both conjunctions.
    mutating func disjoint(_ a: [Conjunct], _ b: [Conjunct], depth: Int) throws(JSONSchemaCompileError) -> Bool {
        try overlapTypes(a, b, depth: depth).isEmpty
    }

    /// The instance types on which the two conjunctions may both hold (empty: provably disjoint).
    mutating func overlapTypes(_ a: [Conjunct], _ b: [Conjunct], depth: Int) throws(JSONSchemaCompileError) -> InstanceTypes {
        guard depth < 6 else { return .all }
        let ka = SchemaLowering.normalize(a), kb = SchemaLowering.normalize(b)
        if ka.isEmpty || kb.isEmpty { return .all }
        let (fla, fa) = try analyze(ka)
        let (flb, fb) = try analyze(kb)
        if fla.unsatisfiable || fa.unsatisfiable || flb.unsatisfiable || fb.unsatisfiable { return [] }
        let common = fa.types.intersection(fb.types)
        if common.isEmpty { return [] }
        if let ea = fa.enumValues, ea.allSatisfy({ check($0, kb, depth: 1) == .invalid || check($0, ka, depth: 1) == .invalid }) { return [] }
        if let eb = fb.enumValues, eb.allSatisfy({ check($0, ka, depth: 1) == .invalid || check($0, kb, depth: 1) == .invalid }) { return [] }
        var overlap = InstanceTypes()
        for t in [InstanceTypes.null, .boolean, .object, .array, .string, .integer, .fraction] where common.contains(t) {
            switch t {
            case .null, .boolean:
                overlap.insert(t)
            case .integer, .fraction:
                if !SchemaLowering.rangesDisjoint(fa, fb) { overlap.insert(t) }
            case .string:
                if !((fa.maxLength.map { $0 < fb.minLength } ?? false) || (fb.maxLength.map { $0 < fa.minLength } ?? false)) { overlap.insert(t) }
            case .array:
                if !((fa.maxItems.map { $0 < fb.minItems } ?? false) || (fb.maxItems.map { $0 < fa.minItems } ?? false)) { overlap.insert(t) }
            default:
                if try !objectsDisjoint(fa, fb, depth: depth) { overlap.insert(t) }
            }
        }
        if !overlap.isEmpty, depth < 3 {
            overlap.formIntersection(try overlapThroughGroups(fla, kb, depth: depth))
            overlap.formIntersection(try overlapThroughGroups(flb, ka, depth: depth))
        }
        return overlap
    }

    /// The facts above leave the `anyOf`/`oneOf` groups of a conjunction out, so a branch that is itself
    /// `oneOf [string, array]` looked like every type. Distributing over each group (its alternatives as a
    /// union: a `oneOf` is a subset of that) bounds the overlap with `other` by the union of the
    /// alternatives' overlaps; each group gives such a bound, and the overlap lies within all of them.
    private mutating func overlapThroughGroups(_ flat: Flattened, _ other: [Conjunct], depth: Int) throws(JSONSchemaCompileError) -> InstanceTypes {
        var bound = InstanceTypes.all
        let base = flat.besideGroups
        for g in flat.groups.prefix(2) where g.alternatives.count <= 16 {
            var union = InstanceTypes()
            for alternative in g.alternatives {
                union.formUnion(try overlapTypes(base + alternative, other, depth: depth + 1))
                if union == .all { break }
            }
            bound.formIntersection(union)
        }
        return bound
    }

    static func rangesDisjoint(_ a: SchemaFacts, _ b: SchemaFacts) -> Bool {
        func below(_ u: NumberBound?, _ l: NumberBound?) -> Bool {
            guard let u, let l else { return false }
            return u.value < l.value || (u.value == l.value && (u.exclusive || l.exclusive))
        }
        return below(a.upper, b.lower) || below(b.upper, a.lower)
    }

    /// Objects are disjoint when one requires a member the other forbids, or both require a member whose
    /// values are disjoint (a discriminator).
    mutating func objectsDisjoint(_ a: SchemaFacts, _ b: SchemaFacts, depth: Int) throws(JSONSchemaCompileError) -> Bool {
        func nodes(_ f: SchemaFacts, _ k: String) throws(JSONSchemaCompileError) -> [Conjunct] {
            try memberNodes(f, k).map { Conjunct(node: $0, full: true) }
        }
        func forbids(_ f: SchemaFacts, _ k: String) throws(JSONSchemaCompileError) -> Bool {
            if f.forbiddenKeys.contains(k) { return true }
            let ns = try nodes(f, k)
            if ns.isEmpty { return false }
            let (fl, fc) = try analyze(SchemaLowering.normalize(ns))
            return fl.unsatisfiable || fc.unsatisfiable
        }
        if let mx = a.maxProperties, mx < b.minProperties { return true }
        if let mx = b.maxProperties, mx < a.minProperties { return true }
        for k in a.required where try forbids(b, k) { return true }
        for k in b.required where try forbids(a, k) { return true }
        for k in a.required where b.required.contains(k) {
            let na = try nodes(a, k), nb = try nodes(b, k)
            if !na.isEmpty, !nb.isEmpty, try disjoint(na, nb, depth: depth + 1) { return true }
        }
        return false
    }
}
