import GuidedSchema

/// A member an object must have that keyword `keyword` of location `node` rejects: the negation of
/// `additionalProperties` (a member neither declared nor matched there, whose value fails its schema),
/// of one `patternProperties` pattern (a matching member whose value fails the pattern's schema) and of
/// `propertyNames` (a member whose name fails it).
struct SomeMember: Hashable, Sendable {
    var node: Int
    /// "additionalProperties", "propertyNames", or "patternProperties/" followed by the pattern.
    var keyword: String

    static let patternPrefix = "patternProperties/"

    /// The pattern of a `patternProperties` requirement, nil for the other keywords.
    var pattern: String? {
        keyword.hasPrefix(Self.patternPrefix) ? String(keyword.dropFirst(Self.patternPrefix.count)) : nil
    }
}

/// "Some member that a keyword rejects" is a quantifier over member names, which no grammar of one object
/// says for open objects. Where the object is closed (a part with `additionalProperties: false` and no
/// `patternProperties`), its names are the finitely many that part declares, and the object has such a
/// member exactly when, for one of those names, the member is present and is one the keyword rejects: one
/// alternative per name, each an object that requires it (with its value failing the keyword's schema).
/// In an open object the same alternatives cover its own names, and a *witness* (`lowerWitnessed`)
/// the undeclared ones, where the keyword rejects them whatever their value; elsewhere the negation is
/// refused. The overlapping `oneOf` of two closed objects is the common case: branch i and not(branch j)
/// needs "i has a member j does not declare".
extension SchemaLowering {
    /// Most names one requirement may split an object into.
    static let maxSomeMemberNames = 64

    /// The alternatives of not(`kw`) for an object keyword of location `id`: nil for other keywords, an
    /// empty list where the keyword cannot fail here.
    mutating func memberKeywordNegation(_ id: Int, _ kw: String, _ v: JSONValue) -> [[Conjunct]]? {
        let object = Conjunct(node: id, mode: .types, name: String(InstanceTypes.object.rawValue))
        func trivial(_ s: JSONValue) -> Bool {
            if case .bool(true) = s { return true }
            if case .object(let o) = s, o.entries.isEmpty { return true }
            return false
        }
        switch kw {
        case "additionalProperties":
            if trivial(v) { return [] }
            return [[Conjunct(node: id, mode: .someMember, name: kw), object]]
        case "patternProperties":
            guard case .object(let m) = v else { return nil }
            return m.entries.filter { !trivial($0.value) }.map {
                [Conjunct(node: id, mode: .someMember, name: SomeMember.patternPrefix + $0.key), object]
            }
        case "propertyNames":
            guard document.draft.level >= JSONSchemaDraft.draft6.level else { return [] }
            if trivial(v) { return [] }
            // `false` rejects every name: a non-empty object, as facts.
            if case .bool(false) = v { return [[Conjunct(node: id, mode: .negatedKeyword, name: kw)]] }
            return [[Conjunct(node: id, mode: .someMember, name: kw), object]]
        default:
            return nil
        }
    }

    /// The names an object under `f` may have, where a part closes them: that part's declared names.
    func finiteMemberNames(_ f: SchemaFacts) -> [String]? {
        for p in f.objectParts where p.patterns.isEmpty {
            guard let a = p.additional, case .bool(false) = document[a].value else { continue }
            return p.properties.map(\.name)
        }
        return nil
    }

    /// What `need` asks of a member named `name`: nothing (the keyword does not look at that name), a
    /// value failing location `value`, or any value (the name itself fails); nil where the name's
    /// verdict is unknown.
    enum MemberDemand { case none, failing(Int), anyValue }

    mutating func demand(_ need: SomeMember, on name: String) throws(JSONSchemaCompileError) -> MemberDemand? {
        guard case .object(let o) = document[need.node].value else { return MemberDemand.none }
        let pointer = document[need.node].pointer
        if let source = need.pattern {
            guard try patternDFA(source, pointer: pointer, keyword: "patternProperties").matches(JSONText.encodeContent(name)) else { return MemberDemand.none }
            return .failing(try document.node(at: pointer + "/patternProperties/" + SchemaDocument.escape(source)))
        }
        if need.keyword == "propertyNames" {
            let names = try document.node(at: pointer + "/propertyNames")
            switch check(.string(name), [Conjunct(node: names, full: true)], depth: 0) {
            case .invalid: return .anyValue
            case .valid: return MemberDemand.none
            case .unknown: return nil
            }
        }
        // additionalProperties: names neither declared nor matched by a pattern of the same location.
        if case .object(let props)? = o["properties"], props[name] != nil { return MemberDemand.none }
        if case .object(let patterns)? = o["patternProperties"] {
            for (source, _) in patterns where try patternDFA(source, pointer: pointer, keyword: "patternProperties").matches(JSONText.encodeContent(name)) {
                return MemberDemand.none
            }
        }
        return .failing(try document.node(at: pointer + "/additionalProperties"))
    }

    /// Facts with `someMembers`: the first requirement split over the object's finitely many names, the
    /// rest lowered with each alternative; refused where the names are not finite.
    mutating func lowerSomeMember(_ f: SchemaFacts) throws(JSONSchemaCompileError) -> GrammarExpr {
        var rest = f
        let need = rest.someMembers.removeFirst()
        let site = negationSite(need.node)
        guard let names = finiteMemberNames(f) else { return try lowerWitnessed(f, need) }
        guard names.count <= Self.maxSomeMemberNames else {
            throw JSONSchemaCompileError(.tooComplex, keyword: site.keyword, pointer: site.pointer,
                                         detail: "its negation names more than \(Self.maxSomeMemberNames) members of a closed object")
        }
        rest.types.formIntersection(.object)
        return .alt(try presentAlternatives(rest, need, names: names))
    }

    /// For each of `names` that `need` asks about: `rest` with that member present (and its value failing
    /// the keyword's schema where the value is what fails).
    mutating func presentAlternatives(_ rest: SchemaFacts, _ need: SomeMember, names: [String]) throws(JSONSchemaCompileError) -> [GrammarExpr] {
        var alternatives: [GrammarExpr] = []
        for name in names where !rest.forbiddenKeys.contains(name) {
            guard let d = try demand(need, on: name) else { throw inexactNegation(need.node) }
            var g = rest
            switch d {
            case .none: continue
            case .anyValue: break
            case .failing(let value):
                let failing = document.negation(of: value, site: negationSite(need.node))
                g.objectParts.append(ObjectPart(properties: [(name, failing)], additional: nil, pointer: document[failing].pointer))
            }
            if !g.required.contains(name) { g.required.append(name) }
            alternatives.append(try lowerFacts(g))
        }
        return alternatives
    }

    /// `need` in an open object: a declared name the keyword rejects, present, or an undeclared member of
    /// the keyword's region (`witnessRegion`) that the object must write. Only where every member of the
    /// region is rejected whatever its value (`additionalProperties: false`, a pattern's `false`): a
    /// witness's key may repeat among the plain undeclared members, and the validator reads the last.
    mutating func lowerWitnessed(_ f: SchemaFacts, _ need: SomeMember) throws(JSONSchemaCompileError) -> GrammarExpr {
        guard options.propertyOrder == .memberSets, witnessRegionRejectsAll(need) else { throw inexactNegation(need.node) }
        var rest = f
        rest.someMembers.removeFirst()
        rest.types.formIntersection(.object)
        // The names `lowerObject` writes as members of their own (and leaves out of the undeclared ones):
        // declared, required and those `dependentRequired` names.
        var declared: [String] = []
        for p in f.objectParts { for (name, _) in p.properties where !declared.contains(name) { declared.append(name) } }
        for name in f.required where !declared.contains(name) { declared.append(name) }
        for d in f.dependentRequired { for name in [d.key] + d.required where !declared.contains(name) { declared.append(name) } }
        var alternatives = try presentAlternatives(rest, need, names: declared)
        var g = rest
        g.witnesses.append(need)
        alternatives.append(try lowerFacts(g))
        return .alt(alternatives)
    }

    /// The undeclared member expressions of `f.witnesses` (computed as `lowerObject` computes its
    /// undeclared member, `names` excluded), or nil where one admits no member: the object is then empty.
    /// Apart from `lowerObject` so that its locals (facts copied per witness) stay out of the frame that
    /// nested objects recurse through (deep nesting overflowed a debug build's stack with them inline).
    @inline(never)
    mutating func witnessMembers(_ f: SchemaFacts, names: [String], patternsOnly: Bool, defaultAllowed: Bool,
                                 nameLanguage: ByteDFA?) throws(JSONSchemaCompileError) -> [GrammarExpr]? {
        var out: [GrammarExpr] = []
        for need in f.witnesses {
            var g = f
            g.witnesses = []
            let (region, excluded) = try witnessRegion(need)
            g.objectParts.append(region)
            let w = patternsOnly
                ? try undeclaredMembers(g, excluding: names + excluded, defaultAllowed: false)
                : try undeclaredMembers(g, excluding: names + excluded, defaultAllowed: defaultAllowed, nameLanguage: nameLanguage)
            if w.isNothing { return nil }
            out.append(w)
        }
        return out
    }

    /// Whether every member of `need`'s region is rejected whatever its value: the keyword's schema for
    /// that region is `false`.
    func witnessRegionRejectsAll(_ need: SomeMember) -> Bool {
        guard case .object(let o) = document[need.node].value else { return false }
        let schema: JSONValue?
        if let source = need.pattern, case .object(let m)? = o["patternProperties"] { schema = m[source] }
        else if need.keyword == "additionalProperties" { schema = o["additionalProperties"] }
        else { schema = nil }
        if case .bool(false)? = schema { return true }
        return false
    }

    /// An object part whose undeclared members are exactly the names of `need`'s region, and the names
    /// to exclude besides the object's own declared ones: for `additionalProperties`, the location's
    /// declared names (excluded) and patterns (`false`); for a pattern, its matches (`true`) and nothing
    /// else (`false`).
    mutating func witnessRegion(_ need: SomeMember) throws(JSONSchemaCompileError) -> (ObjectPart, [String]) {
        let pointer = document[need.node].pointer
        guard case .object(let o) = document[need.node].value else { throw inexactNegation(need.node) }
        if let source = need.pattern {
            return (ObjectPart(properties: [], patterns: [(source, document.constant(true))], additional: document.constant(false), pointer: pointer), [])
        }
        var patterns: [(source: String, node: Int)] = []
        if case .object(let m)? = o["patternProperties"] { for (source, _) in m { patterns.append((source, document.constant(false))) } }
        var declared: [String] = []
        if case .object(let m)? = o["properties"] { declared = m.entries.map(\.key) }
        return (ObjectPart(properties: [], patterns: patterns, additional: nil, pointer: pointer), declared)
    }

    /// Whether object `o` has a member that `need` rejects, for the checker of listed values.
    mutating func checkSomeMember(_ o: JSONObject, _ need: SomeMember, depth: Int) -> Verdict {
        var r = Verdict.invalid
        for (name, value) in o {
            guard let d = try? demand(need, on: name) else { r = .unknown; continue }
            switch d {
            case .none: continue
            case .anyValue: return .valid
            case .failing(let node):
                switch check(value, [Conjunct(node: node, full: true)], depth: depth + 1) {
                case .invalid: return .valid
                case .unknown: r = .unknown
                case .valid: continue
                }
            }
        }
        return r
    }
}
