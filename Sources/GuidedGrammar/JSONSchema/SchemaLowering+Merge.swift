import GuidedSchema

/// A schema location taking part in a conjunction: `full` locations contribute their keywords and their
/// applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`, schema dependencies); keyword-only ones
/// (whose applicators were already expanded into the same conjunction) contribute their keywords alone.
/// Three more modes stand for the pieces that `if`/`then`/`else` and schema dependencies are distributed
/// into: the negation of a location, and "the object has (or lacks) member `name`".
struct Conjunct: Hashable, Comparable, Sendable {
    /// `types`: the instance is of one of the types whose `InstanceTypes` raw value is `name` (what a
    /// `oneOf` branch keeps once the types on which another branch accepts everything are taken away).
    /// `member`: the object's member `name`, when present, satisfies location `node`.
    /// `someMember`: the object has a member that keyword `name` of location `node` rejects
    /// (`SchemaLowering+SomeMember`: the negation of `additionalProperties`, `patternProperties`, `propertyNames`).
    enum Mode: Int, Hashable, Sendable { case keywords = 0, full = 1, negated = 2, present = 3, absent = 4, negatedKeyword = 5, types = 6, member = 7, someMember = 8 }
    var node: Int
    var mode: Mode
    var name: String = ""

    init(node: Int, full: Bool) { self.node = node; mode = full ? .full : .keywords }
    init(node: Int, mode: Mode, name: String = "") { self.node = node; self.mode = mode; self.name = name }

    var full: Bool { mode == .full }
    static func < (a: Conjunct, b: Conjunct) -> Bool {
        if a.node != b.node { return a.node < b.node }
        if a.mode != b.mode { return a.mode.rawValue < b.mode.rawValue }
        return a.name < b.name
    }
}

/// An `anyOf`, `oneOf`, `if`/`then`/`else` or schema dependency met while flattening: alternatives (each a
/// conjunction) still to distribute. `if` and dependency groups are disjoint by construction.
struct DisjunctionGroup: Sendable {
    var oneOf: Bool
    var holder: Int
    var alternatives: [[Conjunct]]
    /// The keyword a refusal names (`anyOf`/`oneOf` when empty).
    var keyword = ""
}

/// A conjunction with `$ref` / `allOf` expanded.
struct Flattened: Sendable {
    var nodes: [Int] = []
    var groups: [DisjunctionGroup] = []
    /// Locations whose negation is part of the conjunction (`not`, the else side of `if`).
    var negated: [Int] = []
    /// Single keywords (of a location) whose negation is part of the conjunction.
    var negatedKeywords: [(node: Int, keyword: String)] = []
    /// Members the object must have that a keyword of a location rejects (`Conjunct.Mode.someMember`).
    var someMembers: [SomeMember] = []
    var presentKeys: [String] = []
    var absentKeys: [String] = []
    /// Types the conjunction is restricted to (`Conjunct.Mode.types`).
    var typeMask = InstanceTypes.all
    /// Member schemas (`Conjunct.Mode.member`).
    var memberSchemas: [(name: String, node: Int)] = []
    var unsatisfiable = false

    /// The conjunction without its groups, as conjuncts that do not expand applicators again.
    var besideGroups: [Conjunct] {
        var base = nodes.map { Conjunct(node: $0, full: false) }
        base += negated.map { Conjunct(node: $0, mode: .negated) }
        base += negatedKeywords.map { Conjunct(node: $0.node, mode: .negatedKeyword, name: $0.keyword) }
        base += presentKeys.map { Conjunct(node: 0, mode: .present, name: $0) }
        base += absentKeys.map { Conjunct(node: 0, mode: .absent, name: $0) }
        base += memberSchemas.map { Conjunct(node: $0.node, mode: .member, name: $0.name) }
        if typeMask != .all { base.append(Conjunct(node: 0, mode: .types, name: String(typeMask.rawValue))) }
        return base
    }
}

extension SchemaLowering {
    static func normalize(_ key: [Conjunct]) -> [Conjunct] {
        // One conjunct is its own normal form (most keys: a member's value, an item, a definition).
        if key.count <= 1 { return key }
        // Sorted, each conjunct once, and a location's `.full` dropped where its `.keywords` is there
        // (the keywords alone are the weaker requirement the conjunction already states; the sort puts
        // them first). One sort and one pass: a dictionary by location and a set of the others, hashed
        // and then sorted, were an eighth of the combination searches of large `oneOf` schemas.
        let sorted = key.sorted()
        var out: [Conjunct] = []
        out.reserveCapacity(sorted.count)
        for c in sorted {
            if let last = out.last {
                if last == c { continue }
                if c.mode == .full && last.mode == .keywords && last.node == c.node { continue }
            }
            out.append(c)
        }
        return out
    }

    /// Flattened form and merged facts of a conjunction (memoized, by the conjunction with its bare
    /// references resolved: a member's value asked for by its `$ref` site and by the definition is one
    /// analysis, not two).
    mutating func analyze(_ rawKey: [Conjunct]) throws(JSONSchemaCompileError) -> (Flattened, SchemaFacts) {
        analyses[try analysisSlot(rawKey)]
    }

    /// The index in `analyses` of `rawKey`'s analysis, made if needed. Callers that need one field read
    /// it in place (`analyses[i].1.types`): an analysis is two large structs, and a copy retains and
    /// releases each of their arrays.
    mutating func analysisSlot(_ rawKey: [Conjunct]) throws(JSONSchemaCompileError) -> Int {
        if let i = analysisIndex[rawKey] { return i }
        let key = SchemaLowering.normalize(resolvingPureReferences(rawKey))
        if let i = analysisIndex[key] { analysisIndex[rawKey] = i; return i }
        let flat = try flatten(key)
        var facts = SchemaFacts()
        if flat.unsatisfiable { facts.unsatisfiable = true }
        for n in flat.nodes { try merge(node: n, into: &facts) }
        for n in flat.negated { try mergeNot(child: n, into: &facts, depth: 0) }
        for (n, kw) in flat.negatedKeywords {
            var g = facts
            if case .object(let o) = document[n].value, let v = o[kw], try complementKeyword(n, kw, v, o, into: &g, depth: 0) { facts = g }
            else if !facts.negated.contains(n) { facts.negated.append(n) }  // not reached: flatten splits only exact keywords
        }
        facts.types.formIntersection(flat.typeMask)
        for (name, node) in flat.memberSchemas {
            facts.objectParts.append(ObjectPart(properties: [(name, node)], additional: nil, pointer: document[node].pointer))
        }
        facts.someMembers += flat.someMembers
        for k in flat.presentKeys where !facts.required.contains(k) { facts.required.append(k) }
        for k in flat.absentKeys where !facts.forbiddenKeys.contains(k) { facts.forbiddenKeys.append(k) }
        analyzedConjuncts += key.count
        analysisIndex[key] = analyses.count
        analysisIndex[rawKey] = analyses.count
        analyses.append((flat, facts))
        return analyses.count - 1
    }

    mutating func flatten(_ key: [Conjunct]) throws(JSONSchemaCompileError) -> Flattened {
        var out = Flattened()
        var seen: Set<Int> = []
        // Depth-first, pre-order: a location's `$ref` target and `allOf` parts are expanded right after it,
        // in the order written, so `nodes` (and the object members merged from them) follow the schema's
        // reading order: with `allOf: [{$ref: A}, B]`, A's properties come before B's.
        var queue = key
        var qi = 0
        var insertAt = 0
        var deferred: Set<Int> = []
        // The location that first queued each one: a reference back to one of these ancestors is a cycle,
        // one to a location reached along another path (a diamond) adds nothing new.
        var parent: [Int: Int] = [:]
        var current = -1
        func push(_ c: Conjunct) {
            queue.insert(c, at: insertAt); insertAt += 1
            if current >= 0, parent[c.node] == nil, c.node != current { parent[c.node] = current }
        }
        func isAncestor(_ a: Int, of n: Int) -> Bool {
            var x = n
            while true {
                if x == a { return true }
                guard let p = parent[x] else { return false }
                x = p
            }
        }
        let draft = document.draft
        while qi < queue.count {
            let c = queue[qi]; qi += 1
            insertAt = qi
            current = c.node
            switch c.mode {
            case .present: out.presentKeys.append(c.name); continue
            case .absent: out.absentKeys.append(c.name); continue
            case .negatedKeyword: out.negatedKeywords.append((c.node, c.name)); continue
            case .types: out.typeMask.formIntersection(InstanceTypes(rawValue: UInt8(c.name) ?? 0)); continue
            case .member: out.memberSchemas.append((c.name, c.node)); continue
            case .someMember: out.someMembers.append(SomeMember(node: c.node, keyword: c.name)); continue
            case .negated:
                let negated = negatedThroughReferences(c.node)
                // not(not(X)) is X itself, applicators included.
                if let inner = try doubleNegation(negated) { push(Conjunct(node: inner, full: true)) }
                else if let split = try negationDisjuncts(negated) {
                    out.groups.append(DisjunctionGroup(oneOf: false, holder: negated, alternatives: split, keyword: negationSite(negated).keyword))
                } else if !out.negated.contains(negated) { out.negated.append(negated) }
                continue
            case .full, .keywords: break
            }
            if seen.contains(c.node) {
                if c.mode == .keywords, deferred.remove(c.node) != nil { out.nodes.append(c.node) }
                continue
            }
            seen.insert(c.node)
            let node = document[c.node]
            switch node.value {
            case .bool(let b):
                // Draft 4 has no boolean schemas; one is read as later drafts read it (true: any value,
                // false: none), and `compileReportingWarnings` reports it (`.draft4BooleanSchema`).
                if !b { out.unsatisfiable = true }
                continue
            case .object(let o):
                // A location that writes `properties` after its `$ref`/`allOf` adds its own keywords after
                // theirs (a keyword-only entry queued behind its parts), so its members come after theirs.
                let ownLast = c.full && Self.propertiesFollowParts(o, draft: draft)
                if !ownLast { out.nodes.append(c.node) }
                guard c.full else { continue }
                defer { if ownLast { push(Conjunct(node: c.node, full: false)); deferred.insert(c.node) } }
                if let ref = o["$ref"] {
                    guard case .string(let r) = ref else {
                        throw JSONSchemaCompileError(.invalidSchema, keyword: "$ref", pointer: node.pointer, detail: "must be a string")
                    }
                    let target = try document.resolve(r, from: c.node)
                    if seen.contains(target) && isAncestor(target, of: c.node) {
                        // Reaching a location that led here without consuming any of the instance: a
                        // reference cycle (validators loop or reject). Refused.
                        throw JSONSchemaCompileError(.unsupported, keyword: "$ref", pointer: node.pointer, detail: "reference cycle that never reaches a keyword")
                    }
                    if !seen.contains(target) { push(Conjunct(node: target, full: true)) }
                    if draft.level <= JSONSchemaDraft.draft7.level { continue }
                }
                for kw in ["allOf", "anyOf", "oneOf"] {
                    guard let v = o[kw] else { continue }
                    guard case .array(let items) = v, !items.isEmpty else {
                        throw JSONSchemaCompileError(.invalidSchema, keyword: kw, pointer: node.pointer, detail: "must be a non-empty array of schemas")
                    }
                    var ids: [Int] = []
                    for i in 0..<items.count { ids.append(try document.child(c.node, "/\(kw)/\(i)")) }
                    if kw == "allOf" {
                        for id in ids { push(Conjunct(node: id, full: true)) }
                    } else if ids.count == 1 {
                        push(Conjunct(node: ids[0], full: true))
                    } else {
                        out.groups.append(DisjunctionGroup(oneOf: kw == "oneOf", holder: c.node, alternatives: ids.map { [Conjunct(node: $0, full: true)] }))
                    }
                }
                if o["not"] != nil {
                    push(Conjunct(node: try document.child(c.node, "/not"), mode: .negated))
                }
                if draft.level >= JSONSchemaDraft.draft7.level, let cond = o["if"] {
                    func branch(_ name: String) throws(JSONSchemaCompileError) -> [Conjunct] {
                        o[name] == nil ? [] : [Conjunct(node: try document.child(c.node, "/" + name), full: true)]
                    }
                    if case .bool(let b) = cond {
                        for x in try branch(b ? "then" : "else") { push(x) }
                    } else if o["then"] != nil || o["else"] != nil {
                        // (if ∧ then) ∨ (¬if ∧ else): two disjoint alternatives.
                        let ifNode = try document.child(c.node, "/if")
                        out.groups.append(DisjunctionGroup(oneOf: false, holder: c.node, alternatives: [
                            [Conjunct(node: ifNode, full: true)] + (try branch("then")),
                            [Conjunct(node: ifNode, mode: .negated)] + (try branch("else")),
                        ], keyword: "if"))
                    }
                }
                // Schema dependencies: (name present ∧ schema) ∨ name absent.
                for kw in ["dependencies", "dependentSchemas"] {
                    guard case .object(let m)? = o[kw], kw == "dependencies" || draft.level >= JSONSchemaDraft.draft2019_09.level else { continue }
                    for (k, v) in m {
                        switch v {
                        case .array: continue
                        case .bool(true): continue
                        case .object(let s) where s.isEmpty: continue
                        case .bool, .object:
                            let dep = try document.child(c.node, "/\(kw)/" + SchemaDocument.escape(k))
                            out.groups.append(DisjunctionGroup(oneOf: false, holder: c.node, alternatives: [
                                [Conjunct(node: c.node, mode: .present, name: k), Conjunct(node: dep, full: true)],
                                [Conjunct(node: c.node, mode: .absent, name: k)],
                            ], keyword: kw))
                        default: continue  // rejected in merge
                        }
                    }
                }
            default:
                throw JSONSchemaCompileError(.invalidSchema, keyword: "", pointer: node.pointer, detail: "a schema must be an object or a boolean")
            }
        }
        return out
    }

    /// Whether `properties` is written after the `$ref` or `allOf` of the same object (which then expand
    /// first in reading order). Before 2019-09 a `$ref` hides its siblings, so there is nothing to order.
    static func propertiesFollowParts(_ o: JSONObject, draft: JSONSchemaDraft) -> Bool {
        guard let own = o.index(of: "properties") else { return false }
        if o["$ref"] != nil && draft.level <= JSONSchemaDraft.draft7.level { return false }
        let parts = [o.index(of: "$ref"), o.index(of: "allOf")].compactMap { $0 }
        return parts.contains { $0 < own }
    }

    /// Adds the keywords of one schema object to `facts`.
    mutating func merge(node id: Int, into f: inout SchemaFacts) throws(JSONSchemaCompileError) {
        let node = document[id]
        guard case .object(let o) = node.value else { return }
        let p = node.pointer
        let draft = document.draft
        if draft.level <= JSONSchemaDraft.draft7.level, o["$ref"] != nil { return }
        func invalid(_ kw: String, _ why: String) -> JSONSchemaCompileError {
            JSONSchemaCompileError(.invalidSchema, keyword: kw, pointer: p, detail: why)
        }
        func count(_ kw: String) throws(JSONSchemaCompileError) -> Int? {
            guard let v = o[kw] else { return nil }
            guard case .number(let n) = v, n.isInteger, !n.isNegative else { throw invalid(kw, "must be a non-negative integer") }
            return n.intValue ?? Int.max / 4
        }
        func number(_ kw: String) throws(JSONSchemaCompileError) -> JSONNumber? {
            guard let v = o[kw] else { return nil }
            guard case .number(let n) = v else { throw invalid(kw, "must be a number") }
            return n
        }
        func child(_ path: String) throws(JSONSchemaCompileError) -> Int { try document.child(id, path) }

        for (kw, value) in o {
            if SchemaKeywords.isInert(kw, draft: draft) { continue }
            if SchemaKeywords.isRefused(kw, draft: draft) {
                // `unevaluated*` rewritten into other parts of this location (see `UnevaluatedRewrite`).
                if case .some(let outcome) = document.unevaluatedOutcomes[UnevaluatedRewrite.key(p, kw)] {
                    if let refusal = outcome { throw refusal }
                    continue
                }
                throw JSONSchemaCompileError(.unsupported, keyword: kw, pointer: p)
            }
            switch kw {
            case "$ref", "allOf", "anyOf", "oneOf":
                continue
            case "type":
                var t: InstanceTypes = []
                var names: [JSONValue] = []
                if case .array(let a) = value { names = a } else { names = [value] }
                for n in names {
                    guard case .string(let s) = n, let one = InstanceTypes(name: s) else { throw invalid(kw, "unknown type \(n)") }
                    t.formUnion(one)
                }
                f.types.formIntersection(t)
            case "enum":
                guard case .array(let a) = value else { throw invalid(kw, "must be an array") }
                f.restrictEnum(a)
            case "const" where draft.level >= JSONSchemaDraft.draft6.level:
                f.restrictEnum([value])
            case "minimum", "maximum":
                guard let n = try number(kw) else { continue }
                var exclusive = false
                if draft == .draft4 {
                    let ek = kw == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum"
                    if let e = o[ek] {
                        guard case .bool(let b) = e else { throw invalid(ek, "must be a boolean in draft 4") }
                        exclusive = b
                    }
                }
                if kw == "minimum" { f.restrictLower(NumberBound(value: n, exclusive: exclusive)) }
                else { f.restrictUpper(NumberBound(value: n, exclusive: exclusive)) }
                f.numberPointer = p
            case "exclusiveMinimum", "exclusiveMaximum":
                if draft == .draft4 {
                    let base = kw == "exclusiveMinimum" ? "minimum" : "maximum"
                    guard case .bool = value else { throw invalid(kw, "must be a boolean in draft 4") }
                    if o[base] == nil { continue }
                    continue
                }
                guard let n = try number(kw) else { continue }
                if kw == "exclusiveMinimum" { f.restrictLower(NumberBound(value: n, exclusive: true)) }
                else { f.restrictUpper(NumberBound(value: n, exclusive: true)) }
                f.numberPointer = p
            case "multipleOf":
                guard let n = try number(kw), !n.isNegative, !n.isZero else { throw invalid(kw, "must be a number greater than 0") }
                f.multipleOf.append((n, p))
            case "minLength": f.minLength = max(f.minLength, try count(kw)!)
            case "maxLength": let c = try count(kw)!; f.maxLength = min(f.maxLength ?? c, c)
            case "pattern":
                guard case .string(let s) = value else { throw invalid(kw, "must be a string") }
                f.patterns.append((s, p))
            case "format":
                guard case .string(let s) = value else { throw invalid(kw, "must be a string") }
                f.formats.append((s, p))
            case "minItems": f.minItems = max(f.minItems, try count(kw)!)
            case "maxItems": let c = try count(kw)!; f.maxItems = min(f.maxItems ?? c, c)
            case "uniqueItems":
                guard case .bool(let b) = value else { throw invalid(kw, "must be a boolean") }
                if b && f.uniqueItems == nil { f.uniqueItems = p }
            case "items", "prefixItems", "additionalItems":
                continue  // handled below as one part
            case "contains" where draft.level >= JSONSchemaDraft.draft6.level || SchemaDocument.isMadeUpContains(p):
                var minC = 1
                var maxC: Int? = nil
                if draft.level >= JSONSchemaDraft.draft2019_09.level {
                    if let m = try count("minContains") { minC = m }
                    maxC = try count("maxContains")
                }
                f.contains.append(ContainsClause(node: try child("/contains"), min: minC, max: maxC, pointer: p))
                f.arrayPointer = p
            case "minContains", "maxContains":
                continue
            case "properties", "additionalProperties", "patternProperties":
                continue  // handled below as one part
            case "required":
                guard case .array(let a) = value else { throw invalid(kw, "must be an array of strings") }
                if draft == .draft4 && a.isEmpty { throw invalid(kw, "must not be empty in draft 4") }
                for v in a {
                    guard case .string(let s) = v else { throw invalid(kw, "must be an array of strings") }
                    if !f.required.contains(s) { f.required.append(s) }
                }
                f.objectPointer = p
            case "minProperties": f.minProperties = max(f.minProperties, try count(kw)!)
            case "maxProperties": let c = try count(kw)!; f.maxProperties = min(f.maxProperties ?? c, c)
            case "propertyNames" where draft.level >= JSONSchemaDraft.draft6.level:
                f.propertyNames.append(try child("/propertyNames"))
                f.objectPointer = p
            case "dependentRequired" where draft.level >= JSONSchemaDraft.draft2019_09.level:
                guard case .object(let m) = value else { throw invalid(kw, "must be an object") }
                for (k, v) in m {
                    guard case .array(let a) = v else { throw invalid(kw, "values must be arrays of strings") }
                    var names: [String] = []
                    for x in a { guard case .string(let s) = x else { throw invalid(kw, "values must be arrays of strings") }; names.append(s) }
                    f.dependentRequired.append((k, names))
                }
            case "dependencies":
                // A keyword up to draft 7; later drafts dropped it, but validators keep it for compatibility,
                // so it is enforced in every draft (stricter is always sound).
                guard case .object(let m) = value else { throw invalid(kw, "must be an object") }
                for (k, v) in m {
                    switch v {
                    case .array(let a):
                        var names: [String] = []
                        for x in a { guard case .string(let s) = x else { throw invalid(kw, "arrays must hold strings") }; names.append(s) }
                        f.dependentRequired.append((k, names))
                    case .bool: continue  // a boolean schema (draft 4 too, read as later drafts do): flatten
                    case .object: continue  // a schema dependency: distributed in flatten
                    default:
                        throw invalid(kw, "values must be arrays of strings or schemas")
                    }
                }
            case "dependentSchemas" where draft.level >= JSONSchemaDraft.draft2019_09.level:
                guard case .object(let m) = value else { throw invalid(kw, "must be an object") }
                for (_, v) in m {
                    switch v {
                    case .bool, .object: continue  // distributed in flatten
                    default: throw invalid(kw, "values must be schemas")
                    }
                }
            case "not":
                continue  // a negated conjunct, from flatten
            case "if", "then", "else":
                continue
            default:
                continue  // not a keyword of this draft: an annotation per the specification
            }
        }

        // Array positions.
        var prefix: [Int] = []
        var rest: Int? = nil
        var hasArrayPart = false
        if draft == .draft2020_12 {
            if case .array(let a)? = o["prefixItems"] {
                for i in 0..<a.count { prefix.append(try child("/prefixItems/\(i)")) }
                hasArrayPart = true
            } else if o["prefixItems"] != nil { throw invalid("prefixItems", "must be an array of schemas") }
            if let items = o["items"] {
                if case .array = items { throw invalid("items", "must be a schema in draft 2020-12") }
                rest = try child("/items"); hasArrayPart = true
            }
        } else if let items = o["items"] {
            hasArrayPart = true
            if case .array(let a) = items {
                for i in 0..<a.count { prefix.append(try child("/items/\(i)")) }
                if o["additionalItems"] != nil { rest = try child("/additionalItems") }
            } else {
                rest = try child("/items")
            }
        }
        if hasArrayPart {
            f.arrayParts.append(ArrayPart(prefix: prefix, rest: rest))
            f.arrayPointer = p
        }

        // Object members.
        var patterns: [(source: String, node: Int)] = []
        if let pv = o["patternProperties"] {
            guard case .object(let m) = pv else { throw invalid("patternProperties", "must be an object") }
            for (k, _) in m {
                _ = try patternDFA(k, pointer: p, keyword: "patternProperties")
                patterns.append((k, try child("/patternProperties/" + SchemaDocument.escape(k))))
            }
        }
        var props: [(name: String, node: Int)] = []
        if let pv = o["properties"] {
            guard case .object(let m) = pv else { throw invalid("properties", "must be an object") }
            for (k, _) in m { props.append((k, try child("/properties/" + SchemaDocument.escape(k)))) }
        }
        let additional: Int? = o["additionalProperties"] != nil ? try child("/additionalProperties") : nil
        if !props.isEmpty || additional != nil || !patterns.isEmpty {
            f.objectParts.append(ObjectPart(properties: props, patterns: patterns, additional: additional, pointer: p))
            f.objectPointer = p
        }
    }
}
