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
                guard let e = JSONFormats.content(fm.name) else {
                    if options.unknownFormats == .ignore { continue }
                    r = .unknown; continue
                }
                if !GrammarMembership.accepts(Grammar(root: e), JSONText.encodeContent(s)) { r = .unknown }
            }
            return r
        case .array(let items):
            if items.count < f.minItems { return .invalid }
            if let m = f.maxItems, items.count > m { return .invalid }
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

    /// `oneOf` as a union of disjoint alternatives: branch i together with the negation of every branch j
    /// not provably disjoint from it. Pairwise disjoint branches need no negation (oneOf = anyOf); an
    /// overlapping branch's negation must be exact, or lowering refuses naming the `oneOf`.
    mutating func exactlyOne(_ g: DisjunctionGroup, base: [Conjunct]) throws(JSONSchemaCompileError) -> DisjunctionGroup {
        let keys = g.alternatives.map { base + $0 }
        var out = g
        out.oneOf = false
        out.keyword = "oneOf"
        for i in 0..<keys.count {
            var negations = 0
            for j in 0..<keys.count where j != i {
                if try !disjoint(keys[i], keys[j], depth: 0) {
                    // Each negation may split into alternatives: a branch overlapping many others is refused
                    // rather than expanded into a product.
                    negations += 1
                    guard negations <= 3, g.alternatives[j].count == 1, g.alternatives[j][0].mode == .full else {
                        throw JSONSchemaCompileError(.notExact, keyword: "oneOf", pointer: document[g.holder].pointer,
                                                     detail: "branches \(i) and \(j) are not provably disjoint")
                    }
                    out.alternatives[i].append(Conjunct(node: g.alternatives[j][0].node, mode: .negated))
                }
            }
        }
        return out
    }

    /// True only when no instance can satisfy both conjunctions.
    mutating func disjoint(_ a: [Conjunct], _ b: [Conjunct], depth: Int) throws(JSONSchemaCompileError) -> Bool {
        guard depth < 6 else { return false }
        let ka = SchemaLowering.normalize(a), kb = SchemaLowering.normalize(b)
        if ka.isEmpty || kb.isEmpty { return false }
        let (fla, fa) = try analyze(ka)
        let (flb, fb) = try analyze(kb)
        if fla.unsatisfiable || fa.unsatisfiable || flb.unsatisfiable || fb.unsatisfiable { return true }
        let common = fa.types.intersection(fb.types)
        if common.isEmpty { return true }
        if let ea = fa.enumValues, ea.allSatisfy({ check($0, kb, depth: 1) == .invalid || check($0, ka, depth: 1) == .invalid }) { return true }
        if let eb = fb.enumValues, eb.allSatisfy({ check($0, ka, depth: 1) == .invalid || check($0, kb, depth: 1) == .invalid }) { return true }
        for t in [InstanceTypes.null, .boolean, .object, .array, .string, .integer, .fraction] where common.contains(t) {
            switch t {
            case .null, .boolean:
                return false
            case .integer, .fraction:
                if !SchemaLowering.rangesDisjoint(fa, fb) { return false }
            case .string:
                if !((fa.maxLength.map { $0 < fb.minLength } ?? false) || (fb.maxLength.map { $0 < fa.minLength } ?? false)) { return false }
            case .array:
                if !((fa.maxItems.map { $0 < fb.minItems } ?? false) || (fb.maxItems.map { $0 < fa.minItems } ?? false)) { return false }
            default:
                if try !objectsDisjoint(fa, fb, depth: depth) { return false }
            }
        }
        return true
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
