import GuidedSchema

/// `unevaluatedProperties` and `unevaluatedItems` (2019-09, 2020-12), rewritten before lowering into
/// keywords the lowering already enforces exactly.
///
/// Which members or items count as evaluated depends on which subschemas pass (annotations of failing
/// subschemas are dropped). Where that is decidable from the applicators (`allOf`, `anyOf`, `oneOf`,
/// `if`/`then`/`else`, `dependentSchemas`, `$ref`) the location's evaluated sets are listed as
/// `EvaluatedAlternative`s, and the keyword `unevaluatedProperties: U` becomes one more `allOf` part:
///
///     anyOf [ allOf [guards of alternative i,
///                    {properties: {names: true}, patternProperties: {patterns: true}, additionalProperties: U}] ]
///
/// (`unevaluatedItems` likewise with `prefixItems` and `items`, a `contains` schema widening `items`).
/// Guards refer to the document's own locations by absolute `$ref`, so nothing is copied and references
/// inside them resolve where they were written. The keyword itself stays in the document (its schema is
/// the target of those references) and the lowering skips it. Where the sets are not decidable
/// (`$dynamicRef`, `$recursiveRef`, an in-place reference cycle, too many alternatives) the keyword is
/// left refused, and the refusal is raised only if lowering reaches it.
struct UnevaluatedRewrite {
    /// The rewritten document, and per `unevaluated*` keyword met (by `key(pointer, keyword)`): nil when
    /// rewritten, else the refusal to raise where the lowering meets it.
    private(set) var root: JSONValue
    private(set) var outcomes: [String: JSONSchemaCompileError?] = [:]

    private var original: SchemaDocument
    private var draft: JSONSchemaDraft { original.draft }
    private let maxAlternatives: Int
    /// Alternatives by dimension and location: a location's own do not depend on which holder asks
    /// (definitions shared by many holders are worked out once).
    private var memo: [Dimension: [String: [EvaluatedAlternative]]] = [:]
    /// Constraint parts to append to `allOf`, by the pointer of the location holding the keyword.
    private var additions: [String: [JSONValue]] = [:]

    static func key(_ pointer: String, _ keyword: String) -> String { pointer + "\u{0}" + keyword }

    /// Nil when the schema has no `unevaluated*` keyword its draft defines (the common case: the
    /// document's registration walk found none, `SchemaDocument.unevaluatedHolders`, and nothing is walked).
    static func rewriting(_ document: SchemaDocument, maxAlternatives: Int) throws(JSONSchemaCompileError) -> UnevaluatedRewrite? {
        let holders = document.unevaluatedHolders
        if holders.isEmpty { return nil }
        var r = UnevaluatedRewrite(root: document.root, original: document, maxAlternatives: maxAlternatives)
        for p in holders { try r.rewrite(holder: p) }
        r.root = r.applyAdditions(r.root, pointer: "")
        return r
    }

    private init(root: JSONValue, original: SchemaDocument, maxAlternatives: Int) {
        self.root = root
        self.original = original
        self.maxAlternatives = maxAlternatives
    }

    // MARK: one location

    private enum Dimension { case properties, items }

    private mutating func rewrite(holder p: String) throws(JSONSchemaCompileError) {
        let id = try original.node(at: p)
        guard case .object(let o) = original[id].value else { return }
        for (keyword, dimension) in [("unevaluatedProperties", Dimension.properties), ("unevaluatedItems", .items)] {
            guard let u = o[keyword] else { continue }
            let k = Self.key(p, keyword)
            if case .bool(true) = u { outcomes[k] = .some(nil); continue }
            do {
                var visiting: Set<String> = []
                let alternatives = try self.alternatives(at: p, dimension, excluding: keyword, visiting: &visiting)
                if let part = constraint(alternatives, dimension, unevaluated: u, at: p + "/" + keyword) {
                    additions[p, default: []].append(part)
                }
                outcomes[k] = .some(nil)
            } catch let error where error.kind == .budgetExceeded {
                throw error
            } catch let error where error.kind == .notExact {
                // The cause is somewhere below: the refusal names the keyword that cannot be enforced.
                let at = error.pointer.isEmpty ? "the root" : error.pointer
                outcomes[k] = .some(JSONSchemaCompileError(.notExact, keyword: keyword, pointer: p,
                                                           detail: error.detail.replacingOccurrences(of: "{at}", with: at)))
            } catch {
                outcomes[k] = .some(error.kind == .tooComplex ? JSONSchemaCompileError(.tooComplex, keyword: keyword, pointer: p, detail: error.detail) : error)
            }
        }
    }

    /// The schema that enforces `unevaluated*: u` given the location's alternatives; nil when it always
    /// holds (some unguarded alternative evaluates everything, or the location admits nothing).
    private func constraint(_ alternatives: [EvaluatedAlternative], _ d: Dimension, unevaluated u: JSONValue, at uPointer: String) -> JSONValue? {
        if alternatives.isEmpty { return nil }
        if alternatives.contains(where: { $0.guards.isEmpty && $0.evaluated.everything }) { return nil }
        let uSchema: JSONValue = u == .bool(false) ? .bool(false) : reference(uPointer)
        var branches: [JSONValue] = []
        for a in alternatives {
            let rest = remainder(a.evaluated, d, uSchema)
            let parts = a.guards.map(guardSchema) + (rest.map { [$0] } ?? [])
            if parts.isEmpty { return nil }  // unguarded and unconstrained: always holds
            branches.append(parts.count == 1 ? parts[0] : .object(JSONObject([(key: "allOf", value: .array(parts))])))
        }
        return branches.count == 1 ? branches[0] : .object(JSONObject([(key: "anyOf", value: .array(branches))]))
    }

    /// "What `e` does not evaluate satisfies `u`", or nil when `e` evaluates everything.
    private func remainder(_ e: EvaluatedSet, _ d: Dimension, _ u: JSONValue) -> JSONValue? {
        if e.everything { return nil }
        var o = JSONObject()
        switch d {
        case .properties:
            if !e.names.isEmpty { o["properties"] = .object(JSONObject(e.names.map { (key: $0, value: .bool(true)) })) }
            if !e.patterns.isEmpty { o["patternProperties"] = .object(JSONObject(e.patterns.map { (key: $0, value: .bool(true)) })) }
            o["additionalProperties"] = u
        case .items:
            // Items a `contains` schema matches are evaluated wherever they stand.
            let rest: JSONValue = e.contains.isEmpty ? u
                : .object(JSONObject([(key: "anyOf", value: .array(e.contains.map(reference) + [u]))]))
            let leading = JSONValue.array(Array(repeating: .bool(true), count: e.prefix))
            if draft == .draft2020_12 {
                if e.prefix > 0 { o["prefixItems"] = leading }
                o["items"] = rest
            } else if e.prefix > 0 {
                o["items"] = leading
                o["additionalItems"] = rest
            } else {
                o["items"] = rest
            }
        }
        return .object(o)
    }

    private func guardSchema(_ g: EvaluationGuard) -> JSONValue {
        switch g {
        case .holds(let p): return reference(p)
        case .fails(let p): return .object(JSONObject([(key: "not", value: reference(p))]))
        // `dependentSchemas` applies to objects only: an array with the "member" must not qualify.
        case .has(let name): return .object(JSONObject([(key: "type", value: .string("object")), (key: "required", value: .array([.string(name)]))]))
        }
    }

    /// A `$ref` that reaches the location at `pointer` from anywhere in the document (the root is always
    /// registered under the default base, whatever its `$id`).
    private func reference(_ pointer: String) -> JSONValue {
        let fragment = pointer.replacingOccurrences(of: "%", with: "%25")
        return .object(JSONObject([(key: "$ref", value: .string(SchemaDocument.defaultBase.withoutFragment + "#" + fragment))]))
    }

    // MARK: evaluated sets

    /// A reason the evaluated sets are undecidable, found at `pointer` (`{at}` in `why` stands for it);
    /// `rewrite(holder:)` turns it into the refusal of the keyword.
    private func refusal(_ pointer: String, _ why: String) -> JSONSchemaCompileError {
        JSONSchemaCompileError(.notExact, keyword: "", pointer: pointer, detail: why)
    }

    private func tooMany(_ p: String) -> JSONSchemaCompileError {
        JSONSchemaCompileError(.tooComplex, keyword: "", pointer: p, detail: "more than \(maxAlternatives) evaluated-set alternatives")
    }

    /// The alternatives of the location at `p` (`excluding`: the keyword being rewritten, at the holder).
    private mutating func alternatives(at p: String, _ d: Dimension, excluding: String? = nil,
                                       visiting: inout Set<String>) throws(JSONSchemaCompileError) -> [EvaluatedAlternative] {
        if excluding == nil, let known = memo[d]?[p] { return known }
        if let spent = CompileBudget.current?.exceeded {
            throw JSONSchemaCompileError(.budgetExceeded, keyword: "", pointer: p, detail: spent.description)
        }
        guard visiting.insert(p).inserted else {
            throw refusal(p, "what it leaves depends on itself: the location at {at} refers back to itself without descending into the instance")
        }
        defer { visiting.remove(p) }
        let id = try original.node(at: p)
        var result: [EvaluatedAlternative]
        switch original[id].value {
        case .bool(let b): result = b ? [.unconditional] : []
        case .object(let o): result = try objectAlternatives(o, at: p, id: id, d, excluding: excluding, visiting: &visiting)
        default: result = [.unconditional]  // an invalid schema: the lowering reports it
        }
        if result.count > maxAlternatives { throw tooMany(p) }
        if excluding == nil { memo[d, default: [:]][p] = result }
        return result
    }

    private mutating func objectAlternatives(_ o: JSONObject, at p: String, id: Int, _ d: Dimension, excluding: String?,
                                             visiting: inout Set<String>) throws(JSONSchemaCompileError) -> [EvaluatedAlternative] {
        for kw in ["$dynamicRef", "$recursiveRef"] where o[kw] != nil {
            throw refusal(p, "what it leaves depends on the '\(kw)' at {at}, which is not resolved")
        }
        var result = [EvaluatedAlternative(guards: [], evaluated: adjacent(o, d, excluding: excluding, at: p))]
        // Checked at every step: two large `anyOf`s would otherwise multiply out before any check.
        func joined(_ a: [EvaluatedAlternative], _ b: [EvaluatedAlternative]) throws(JSONSchemaCompileError) -> [EvaluatedAlternative] {
            if a.count * b.count > maxAlternatives * 4 { throw tooMany(p) }
            let j = a.and(b)
            if j.count > maxAlternatives { throw tooMany(p) }
            return j
        }
        func child(_ path: String) -> String { p + "/" + path }
        if case .string(let ref)? = o["$ref"] {
            let target = try original.resolve(ref, from: id)
            result = try joined(result, try alternatives(at: original[target].pointer, d, visiting: &visiting))
        }
        if case .array(let parts)? = o["allOf"] {
            for i in parts.indices { result = try joined(result, try alternatives(at: child("allOf/\(i)"), d, visiting: &visiting)) }
        }
        if case .array(let parts)? = o["anyOf"] {
            // The non-empty subsets of branches that evaluate something; the others add nothing.
            var subsets: [EvaluatedAlternative] = [.unconditional]
            for i in parts.indices {
                let branch = try alternatives(at: child("anyOf/\(i)"), d, visiting: &visiting).map { $0.guarded(by: .holds(child("anyOf/\(i)"))) }
                if branch.allSatisfy({ $0.evaluated.isEmpty }) { continue }
                subsets = try joined(subsets, [.unconditional] + branch)
            }
            result = try joined(result, subsets)
        }
        if case .array(let parts)? = o["oneOf"] {
            var branches: [EvaluatedAlternative] = []
            for i in parts.indices {
                branches += try alternatives(at: child("oneOf/\(i)"), d, visiting: &visiting).map { $0.guarded(by: .holds(child("oneOf/\(i)"))) }
            }
            result = try joined(result, branches.pruned())
        }
        if draft.level >= JSONSchemaDraft.draft7.level, let cond = o["if"] {
            func branch(_ name: String) throws(JSONSchemaCompileError) -> [EvaluatedAlternative] {
                o[name] == nil ? [.unconditional] : try alternatives(at: child(name), d, visiting: &visiting)
            }
            var sides: [EvaluatedAlternative]
            if case .bool(let b) = cond {
                sides = try branch(b ? "then" : "else")
            } else {
                let whenTrue = try alternatives(at: child("if"), d, visiting: &visiting).and(try branch("then"))
                sides = whenTrue.map { $0.guarded(by: .holds(child("if"))) }
                sides += try branch("else").map { $0.guarded(by: .fails(child("if"))) }
            }
            result = try joined(result, sides.pruned())
        }
        if case .object(let m)? = o["dependentSchemas"] {
            for (name, _) in m {
                let dependent = try alternatives(at: child("dependentSchemas/" + SchemaDocument.escape(name)), d, visiting: &visiting)
                result = try joined(result, ([.unconditional] + dependent.map { $0.guarded(by: .has(name)) }).pruned())
            }
        }
        if case .object(let m)? = o["dependencies"], m.entries.contains(where: { if case .array = $0.value { return false }; return true }) {
            throw refusal(p, "what a schema-valued 'dependencies' at {at} evaluates is not defined in draft \(draft == .draft2020_12 ? "2020-12" : "2019-09") (use dependentSchemas)")
        }
        return result
    }

    /// What the keywords of this location itself evaluate, whatever its subschemas do.
    private func adjacent(_ o: JSONObject, _ d: Dimension, excluding: String?, at p: String) -> EvaluatedSet {
        var e = EvaluatedSet()
        switch d {
        case .properties:
            if o["additionalProperties"] != nil { return .all }
            // A nested `unevaluatedProperties` evaluates every member its neighbours leave.
            if excluding != "unevaluatedProperties", o["unevaluatedProperties"] != nil { return .all }
            if case .object(let m)? = o["properties"] { e.names = m.keys }
            if case .object(let m)? = o["patternProperties"] { e.patterns = m.keys }
        case .items:
            if excluding != "unevaluatedItems", o["unevaluatedItems"] != nil { return .all }
            if draft == .draft2020_12 {
                if o["items"] != nil { return .all }
                if case .array(let a)? = o["prefixItems"] { e.prefix = a.count }
                if o["contains"] != nil { e.contains = [p + "/contains"] }
            } else {
                switch o["items"] {
                case .array(let a)?:
                    if o["additionalItems"] != nil { return .all }
                    e.prefix = a.count
                case .some: return .all
                case nil: break
                }
            }
        }
        return e
    }

    // MARK: applying

    /// `v` with each holder's constraint parts appended to its `allOf` (created when absent), so no
    /// existing pointer changes.
    private func applyAdditions(_ v: JSONValue, pointer: String) -> JSONValue {
        guard case .object(var o) = v else { return v }
        for (key, child) in o.entries {
            guard let kind = SchemaKeywords.childKind(key, draft: draft) else { continue }
            let p = pointer + "/" + SchemaDocument.escape(key)
            switch kind {
            case .schema: o[key] = applyAdditions(child, pointer: p)
            case .schemaMap:
                guard case .object(var m) = child else { continue }
                for (k, s) in m.entries { m[k] = applyAdditions(s, pointer: p + "/" + SchemaDocument.escape(k)) }
                o[key] = .object(m)
            case .schemaArray, .schemaOrArray:
                if case .array(let a) = child {
                    o[key] = .array(a.enumerated().map { applyAdditions($0.element, pointer: p + "/\($0.offset)") })
                } else if kind == .schemaOrArray {
                    o[key] = applyAdditions(child, pointer: p)
                }
            }
        }
        if let parts = additions[pointer] {
            switch o["allOf"] {
            case nil: o["allOf"] = .array(parts)
            case .array(let existing)? where !existing.isEmpty: o["allOf"] = .array(existing + parts)
            default: break  // an invalid `allOf`, which the lowering refuses: nothing to add to
            }
        }
        return .object(o)
    }
}
