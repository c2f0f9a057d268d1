import GuidedSchema

/// `not` (and the `else` side of `if`): the negation of a schema location, rewritten into merged facts
/// where the complement is exactly expressible; otherwise kept as a negated location, which stays exact
/// when the conjunction lists its instances (`enum`/`const`: each listed value is then decided by the
/// checker) and is refused at lowering time when it does not.
extension SchemaLowering {
    /// How deep `complement` follows references and nested applicators before calling a negation
    /// inexact as facts (the same bound `mergeNot` starts it under).
    static let maxComplementDepth = 8

    /// The location Y when `id` is `{not: Y}` (nothing else effective): not(not(Y)) = Y.
    mutating func doubleNegation(_ id: Int) throws(JSONSchemaCompileError) -> Int? {
        guard case .object(let o) = document[id].value, o["not"] != nil else { return nil }
        let effective = o.entries.filter { SchemaKeywords.isEffective($0.key, draft: document.draft) }
        guard effective.count == 1 else { return nil }
        return try document.node(at: document[id].pointer + "/not")
    }

    /// Adds not(location `id`) to `f`: exactly when expressible, else as a negated location.
    mutating func mergeNot(child id: Int, into f: inout SchemaFacts, depth: Int) throws(JSONSchemaCompileError) {
        var g = f
        if try complement(id, into: &g, depth: depth) {
            f = g
        } else if !f.negated.contains(id) {
            f.negated.append(id)
        }
    }

    /// The keyword and pointer a refusal of negated location `id` names: `not` or `if` at its holder, or
    /// `oneOf` for an overlapping branch (whose negation the other branches need).
    func negationSite(_ id: Int) -> (keyword: String, pointer: String) {
        if let site = document.negationSites[id] { return site }
        let p = document[id].pointer
        guard let slash = p.lastIndex(of: "/") else { return ("not", "") }
        let last = String(p[p.index(after: slash)...]), holder = String(p[..<slash])
        if Int(last) != nil, let s2 = holder.lastIndex(of: "/") {
            // A branch of `oneOf` (overlapping), or a part of `allOf`/`anyOf` under a negation.
            return (String(holder[holder.index(after: s2)...]), String(holder[..<s2]))
        }
        return (last, holder)
    }

    /// Rewrites not(`id`) into `f` when the complement is a conjunction of facts; false when it is not.
    /// Per-type keywords (lengths, item and member counts, bounds, patterns, multipleOf, `required`) hold
    /// for every instance of another type, so their complement is an instance of their type that meets the
    /// opposite constraint (`not: {minimum: 3}` rejects `"x"`, which `minimum` alone accepts).
    mutating func complement(_ id: Int, into f: inout SchemaFacts, depth: Int) throws(JSONSchemaCompileError) -> Bool {
        // References and `anyOf` recurse here; a cycle of them (`a: {anyOf: [{$ref: a}, ...]}`) that
        // never reaches a keyword would recurse forever (it overflowed the stack before this bound).
        guard depth < SchemaLowering.maxComplementDepth else { return false }
        let node = document[id]
        let draft = document.draft
        switch node.value {
        case .bool(let b):
            if b { f.unsatisfiable = true }
            return true
        case .object(let o):
            if draft.level <= JSONSchemaDraft.draft7.level, case .string(let r)? = o["$ref"] {
                guard let target = try? document.resolve(r, from: id) else { return false }
                return try complement(target, into: &f, depth: depth + 1)
            }
            let effective = o.entries.filter { SchemaKeywords.isEffective($0.key, draft: draft) }
            if effective.isEmpty { f.unsatisfiable = true; return true }
            guard effective.count == 1, let (kw, v) = effective.first else { return false }
            return try complementKeyword(id, kw, v, o, into: &f, depth: depth)
        default:
            return false
        }
    }

    /// Object keywords whose negation is "some member they reject" (`SchemaLowering+SomeMember`).
    static let memberKeywords: Set<String> = ["additionalProperties", "patternProperties", "propertyNames"]

    /// Keywords whose negations are independent single-keyword complements (see `complementKeyword`).
    static let splittableKeywords: Set<String> = [
        "type", "enum", "const", "required", "minItems", "maxItems", "minLength", "maxLength", "minProperties",
        "maxProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "pattern",
        "format",
    ]

    /// not(A ∧ B ∧ ...) as alternatives not(A) ∨ not(B) ∨ ..., for a schema object whose keywords are all
    /// exactly complementable one by one (`required: [a, b]` gives "a absent" ∨ "b absent"), applicators
    /// (`SchemaLowering+ApplicatorNegation`) and object keywords ("some member they reject",
    /// `SchemaLowering+SomeMember`) among them; nil otherwise.
    mutating func negationDisjuncts(_ id: Int) throws(JSONSchemaCompileError) -> [[Conjunct]]? {
        guard case .object(let o) = document[id].value else { return nil }
        let draft = document.draft
        if draft.level <= JSONSchemaDraft.draft7.level, o["$ref"] != nil { return nil }
        let effective = o.entries.filter { SchemaKeywords.isEffective($0.key, draft: draft) }
        // not(allOf [A, B, ...]) = not(A) ∨ not(B) ∨ ...
        if effective.count == 1, effective[0].key == "allOf", case .array(let parts) = effective[0].value, parts.count >= 2 {
            var alternatives: [[Conjunct]] = []
            for i in 0..<parts.count {
                alternatives.append([Conjunct(node: try document.node(at: document[id].pointer + "/allOf/\(i)"), mode: .negated)])
            }
            return alternatives
        }
        // A lone applicator that `complement` turns into facts stays facts (`anyOf` of exact complements,
        // `oneOf` of one branch); the alternatives below are for the rest.
        if effective.count == 1, SchemaLowering.negatableApplicators.contains(effective[0].key)
            || SchemaLowering.memberKeywords.contains(effective[0].key) {
            var probe = SchemaFacts()
            if try complement(id, into: &probe, depth: 0) { return nil }
        }
        var alternatives: [[Conjunct]] = []
        var split = false
        for (kw, v) in effective {
            if SchemaLowering.negatableApplicators.contains(kw) {
                guard let more = try applicatorNegation(id, kw, o) else { return nil }
                alternatives += more
                split = true
                continue
            }
            if kw == "properties" {
                // not(properties {p: S, ...}) = an object with some member p whose value fails S.
                guard case .object(let props) = v, !props.entries.isEmpty else { return nil }
                let site = negationSite(id)
                for (name, _) in props.entries {
                    let s = try document.node(at: document[id].pointer + "/properties/" + SchemaDocument.escape(name))
                    alternatives.append([Conjunct(node: id, mode: .present, name: name),
                                         Conjunct(node: document.negation(of: s, site: site), mode: .member, name: name),
                                         Conjunct(node: id, mode: .types, name: String(InstanceTypes.object.rawValue))])
                }
                split = true
                continue
            }
            if kw == "items" || kw == "contains" {
                guard let n = try arrayNegation(id, kw, o) else { return nil }
                alternatives.append([Conjunct(node: n, full: true)])
                split = true
                continue
            }
            if let more = memberKeywordNegation(id, kw, v) {
                alternatives += more
                split = true
                continue
            }
            guard SchemaLowering.splittableKeywords.contains(kw) else { return nil }
            if draft == .draft4, kw.hasPrefix("exclusive") || ((kw == "minimum" || kw == "maximum") && (o["exclusiveMinimum"] != nil || o["exclusiveMaximum"] != nil)) { return nil }
            if kw == "const", draft == .draft4 { continue }
            if kw == "required" {
                guard case .array(let names) = v else { return nil }
                for n in names {
                    guard case .string(let s) = n else { return nil }
                    // `required` holds for every non-object: only objects can fail it.
                    alternatives.append([Conjunct(node: id, mode: .absent, name: s),
                                         Conjunct(node: id, mode: .types, name: String(InstanceTypes.object.rawValue))])
                }
                if names.isEmpty { alternatives.append([Conjunct(node: id, mode: .negatedKeyword, name: kw)]) }
                continue
            }
            var probe = SchemaFacts()
            guard try complementKeyword(id, kw, v, o, into: &probe, depth: 0) else { return nil }
            alternatives.append([Conjunct(node: id, mode: .negatedKeyword, name: kw)])
        }
        // Keywords that cannot fail (an `if` without `then` or `else`) leave nothing: the negation is false.
        if split && alternatives.isEmpty { return [[Conjunct(node: id, mode: .types, name: "0")]] }
        // One alternative is handled directly by complement (no disjunction needed), save `properties`.
        return alternatives.count >= 2 || split ? alternatives : nil
    }

    /// not(items: S) is an array with some item failing S (`contains: {not: S}`), and not(contains: C) an
    /// array whose every item fails C (`items: {not: C}`): a made-up location, or nil where the keyword's
    /// neighbours change its meaning (`prefixItems`, tuple `items`, `min/maxContains`). The made-up
    /// `contains` is read in every draft (`SchemaLowering.merge`), draft 4 included, which has no such
    /// keyword for a schema to write.
    mutating func arrayNegation(_ id: Int, _ kw: String, _ o: JSONObject) throws(JSONSchemaCompileError) -> Int? {
        let draft = document.draft
        if kw == "items" {
            // Tuple `items` (before 2020-12) and `items` after `prefixItems` hold for some positions only.
            switch o["items"] {
            case .object?, .bool?: break
            default: return nil
            }
            if draft == .draft2020_12, o["prefixItems"] != nil { return nil }
            let child = try document.node(at: document[id].pointer + "/items")
            return document.arrayNegation(of: child, as: "contains", site: negationSite(id))
        }
        // Before draft 6 a schema's own `contains` is no keyword at all.
        guard draft.level >= JSONSchemaDraft.draft6.level, o["minContains"] == nil, o["maxContains"] == nil else { return nil }
        let child = try document.node(at: document[id].pointer + "/contains")
        return document.arrayNegation(of: child, as: "items", site: negationSite(id))
    }

    /// not({kw: v}) for one keyword of location `id` (object `o`); false when not exactly expressible.
    mutating func complementKeyword(_ id: Int, _ kw: String, _ v: JSONValue, _ o: JSONObject, into f: inout SchemaFacts, depth: Int) throws(JSONSchemaCompileError) -> Bool {
        let node = document[id]
        let draft = document.draft
        let site = negationSite(id)
        func count() -> Int? {
            guard case .number(let n) = v, n.isInteger, !n.isNegative else { return nil }
            return n.intValue
        }
        switch kw {
        case "type":
            guard let t = InstanceTypes(typeKeyword: v) else { return false }
            f.types.subtract(t)
            if f.numberPointer.isEmpty { f.numberPointer = node.pointer }
        case "enum":
            guard case .array(let a) = v else { return false }
            f.excluded += a
            f.excludedPointer = site.pointer
        case "const" where draft.level >= JSONSchemaDraft.draft6.level:
            f.excluded.append(v)
            f.excludedPointer = site.pointer
        case "required":
            guard case .array(let a) = v else { return false }
            if a.isEmpty { f.types = []; return true }
            guard a.count == 1, case .string(let k) = a[0] else { return false }
            f.types.formIntersection(.object)
            f.forbiddenKeys.append(k)
            f.objectPointer = site.pointer
        case "minItems":
            guard let n = count() else { return false }
            if n == 0 { f.types = [] } else { f.types.formIntersection(.array); f.maxItems = min(f.maxItems ?? (n - 1), n - 1) }
        case "maxItems":
            guard let n = count(), n < Int.max / 4 else { return false }
            f.types.formIntersection(.array)
            f.minItems = max(f.minItems, n + 1)
        case "minLength":
            guard let n = count() else { return false }
            if n == 0 { f.types = [] } else { f.types.formIntersection(.string); f.maxLength = min(f.maxLength ?? (n - 1), n - 1) }
        case "maxLength":
            guard let n = count(), n < Int.max / 4 else { return false }
            f.types.formIntersection(.string)
            f.minLength = max(f.minLength, n + 1)
        case "minProperties":
            guard let n = count() else { return false }
            if n == 0 { f.types = [] } else { f.types.formIntersection(.object); f.maxProperties = min(f.maxProperties ?? (n - 1), n - 1) }
            f.objectPointer = site.pointer
        case "maxProperties":
            guard let n = count(), n < Int.max / 4 else { return false }
            f.types.formIntersection(.object)
            f.minProperties = max(f.minProperties, n + 1)
            f.objectPointer = site.pointer
        case "minimum", "maximum":
            guard case .number(let n) = v, draft != .draft4 || o["exclusive" + (kw == "minimum" ? "Minimum" : "Maximum")] == nil else { return false }
            f.types.formIntersection(.number)
            if kw == "minimum" { f.restrictUpper(NumberBound(value: n, exclusive: true)) }
            else { f.restrictLower(NumberBound(value: n, exclusive: true)) }
            f.numberPointer = site.pointer
        case "exclusiveMinimum", "exclusiveMaximum":
            guard draft != .draft4, case .number(let n) = v else { return false }
            f.types.formIntersection(.number)
            if kw == "exclusiveMinimum" { f.restrictUpper(NumberBound(value: n, exclusive: false)) }
            else { f.restrictLower(NumberBound(value: n, exclusive: false)) }
            f.numberPointer = site.pointer
        case "multipleOf":
            guard case .number(let n) = v, !n.isNegative, !n.isZero else { return false }
            f.types.formIntersection(.number)
            f.notMultipleOf.append((n, site.pointer))
        case "pattern":
            guard case .string(let s) = v, (try? patternDFA(s, pointer: site.pointer)) != nil else { return false }
            f.types.formIntersection(.string)
            f.negatedPatterns.append((s, site.pointer))
        case "format":
            // A format with an exact language holds for every non-string, like `pattern`; its complement
            // is a string outside that language.
            guard case .string(let name) = v else { return false }
            // A format no draft defines is an annotation (as the positive side reads it unless
            // `unknownFormats` is `.refuse`): it always holds, so its negation admits nothing.
            if case .undefined = JSONFormats.support(name), options.unknownFormats == .ignore { f.types = []; return true }
            guard case .enforced = JSONFormats.support(name) else { return false }
            f.types.formIntersection(.string)
            f.negatedFormats.append((name, site.pointer))
        case "anyOf":
            // not(A ∨ B ∨ ...) = not(A) ∧ not(B) ∧ ...; each must be exact.
            guard case .array(let items) = v, !items.isEmpty else { return false }
            for i in 0..<items.count {
                let child = try document.node(at: node.pointer + "/anyOf/\(i)")
                guard try complement(child, into: &f, depth: depth + 1) else { return false }
            }
        case "allOf", "oneOf":
            guard case .array(let items) = v, items.count == 1 else { return false }
            return try complement(try document.node(at: node.pointer + "/\(kw)/0"), into: &f, depth: depth + 1)
        case "not":
            // not(not(Y)) merged as keywords of Y when Y has no applicators (flatten handles the rest).
            let inner = try document.node(at: node.pointer + "/not")
            guard case .object(let io) = document[inner].value else {
                if case .bool(let b) = document[inner].value, !b { f.unsatisfiable = true; return true }
                return true
            }
            for k in ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "dependencies", "dependentSchemas"] where io[k] != nil { return false }
            try merge(node: inner, into: &f)
        case "propertyNames" where draft.level >= JSONSchemaDraft.draft6.level:
            // propertyNames: false holds for non-objects and {}: its negation is a non-empty object.
            guard case .bool(false) = v else { return false }
            f.types.formIntersection(.object)
            f.minProperties = max(f.minProperties, 1)
            f.objectPointer = site.pointer
        case "$ref":
            guard case .string(let r) = v, let target = try? document.resolve(r, from: id) else { return false }
            return try complement(target, into: &f, depth: depth + 1)
        default:
            return false
        }
        return true
    }
}
