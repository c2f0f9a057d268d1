import GuidedSchema

extension SchemaDocument {
    /// Refuses the schema when a validator could reach a check it cannot make: a `$ref` that points to
    /// nothing, a `pattern` or `patternProperties` name that is not a regular expression. Every `$ref`
    /// on the way is resolved and its target walked too.
    ///
    /// Why before lowering: the lowering drops locations that admit no value of the type at hand (a
    /// `oneOf` branch requiring a member its `additionalProperties: false` forbids) without looking
    /// inside, but a validator still evaluates them (that branch's `properties` against the instance's
    /// members) and cannot decide an instance at such a check (`JSONSchemaValidator` fails the whole
    /// run). An accepted instance must be one a validator decides, so such a schema is refused wherever
    /// the check sits. Definitions count only where something refers to them.
    mutating func refuseUncheckable() throws(JSONSchemaCompileError) {
        var walk = CheckWalk(pending: [try node(at: "")])
        while let id = walk.pending.popLast() {
            guard walk.entered.insert(id).inserted else { continue }
            let start = nodes[id]
            var path: [String] = []
            try visitChecks(start.value, under: start.pointer, path: &path, base: start.baseURI, baseKnown: true, walk: &walk)
        }
    }

    /// The locations whose walk is queued or done, and the references met so far: a large schema
    /// writes the same `#/definitions/...` hundreds of times, each resolved once.
    private struct CheckWalk {
        struct Reference: Hashable {
            let base: SchemaURI
            let ref: String
        }
        var pending: [Int]
        var entered: Set<Int> = []
        var targets: [Reference: Int] = [:]
    }

    /// Walks the schema positions of `value` that a validator evaluates, resolving each `$ref` (its
    /// target queued in `walk`) and parsing each pattern. `value` sits at `root` followed by the
    /// escaped tokens of `path`; `baseKnown`: `base` already takes in this location's own identifier.
    private mutating func visitChecks(
        _ value: JSONValue, under root: String, path: inout [String], base: SchemaURI, baseKnown: Bool, walk: inout CheckWalk
    ) throws(JSONSchemaCompileError) {
        guard case .object(let o) = value else { return }
        let base = baseKnown ? base : baseAfter(value, base: base, isSchema: true)
        func pointer() -> String { path.isEmpty ? root : root + "/" + path.joined(separator: "/") }
        if case .string(let ref)? = o["$ref"] {
            let key = CheckWalk.Reference(base: base, ref: ref)
            if let known = walk.targets[key] { walk.pending.append(known) } else {
                let target = try resolve(ref, base: base, at: pointer())
                walk.targets[key] = target
                walk.pending.append(target)
            }
            // Before 2019-09 a `$ref` hides its siblings from validators too.
            if draft.level <= JSONSchemaDraft.draft7.level { return }
        }
        if case .string(let p)? = o["pattern"] { try SchemaDocument.refuseInvalidPattern(p, keyword: "pattern", pointer: pointer()) }
        if case .object(let names)? = o["patternProperties"] {
            for (name, _) in names { try SchemaDocument.refuseInvalidPattern(name, keyword: "patternProperties", pointer: pointer()) }
        }
        // Definitions and `contentSchema` are not applied to the instance where they are written.
        try SchemaKeywords.forEachSubschema(in: o, draft: draft, skipping: { $0 == "definitions" || $0 == "$defs" || $0 == "contentSchema" }) {
            (key, member, child) throws(JSONSchemaCompileError) in
            path.append(SchemaDocument.escape(key))
            if let member { path.append(member) }
            defer { path.removeLast(member == nil ? 1 : 2) }
            try visitChecks(child, under: root, path: &path, base: base, baseKnown: false, walk: &walk)
        }
    }

    /// The refusal the lowering gives a pattern that does not parse, for one it may never lower. Only
    /// syntax errors: a valid pattern the automata cannot express (a back-reference) is one a validator
    /// checks, and the lowering refuses it where it is lowered.
    private static func refuseInvalidPattern(_ source: String, keyword: String, pointer: String) throws(JSONSchemaCompileError) {
        do { _ = try RegexParser.parse(source, dialect: .ecma262, lookaround: true) } catch {
            guard error.kind == .syntax else { return }
            throw JSONSchemaCompileError(.unsupported, keyword: keyword, pointer: pointer, detail: "pattern \(JSONValue.string(source)): \(error.message)")
        }
    }
}
