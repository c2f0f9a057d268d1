extension OutputSchema {
    /// The schema as JSON Schema in `dialect`.
    ///
    /// Objects declared in Swift (builder, derivation) carry `additionalProperties: false`; definitions
    /// anywhere in the tree are hoisted to the root's `$defs`. Keys are written in a fixed order (`type`,
    /// `title`, `description`, constraints, `default`; `$defs` last) so the text is stable.
    ///
    /// - Throws: `SchemaExportError.dialectViolations` listing everything the dialect cannot express (the
    ///   schema is never silently loosened to fit), or `.invalidSchema` for a dangling reference or two
    ///   different definitions with one name.
    public func jsonSchema(for dialect: SchemaDialect = .standard) throws(SchemaExportError) -> JSONValue {
        var exporter = SchemaExporter(dialect: dialect)
        let value = try exporter.export(self)
        if !exporter.violations.isEmpty { throw .dialectViolations(exporter.violations) }
        return value
    }

    /// What `dialect` cannot express, in document order (empty when `jsonSchema(for:)` would succeed).
    public func dialectViolations(for dialect: SchemaDialect) throws(SchemaExportError) -> [DialectViolation] {
        var exporter = SchemaExporter(dialect: dialect)
        _ = try exporter.export(self)
        return exporter.violations
    }

    /// `jsonSchema(for:)` serialized.
    public func jsonSchemaText(
        for dialect: SchemaDialect = .standard, formatting: JSONFormatting = .compact
    ) throws(SchemaExportError) -> String {
        try jsonSchema(for: dialect).serialized(formatting)
    }
}

/// Writes an `OutputSchema` as JSON Schema, collecting dialect violations as it goes (see
/// `SchemaExporter+Dialects.swift` for the per-dialect rules).
struct SchemaExporter {
    let dialect: SchemaDialect
    var violations: [DialectViolation] = []
    /// Root and hoisted definitions, in first-seen order.
    var definitions: [SchemaDefinition] = []
    /// Definitions (and "#" for the root) that can reach themselves through references.
    var recursiveTargets: Set<String> = []

    init(dialect: SchemaDialect) { self.dialect = dialect }

    mutating func export(_ root: OutputSchema) throws(SchemaExportError) -> JSONValue {
        do throws(SchemaError) {
            try hoistDefinitions(root)
            try checkReferences(root, at: "")
            for d in definitions { try checkReferences(d.schema, at: JSONPointer.appending("/$defs", d.name)) }
        } catch {
            throw .invalidSchema(error)
        }
        recursiveTargets = findRecursiveTargets(root)
        checkRoot(root)
        var out = write(root, at: "", depth: 0)
        if !definitions.isEmpty, case .object(var o) = out {
            var defs = JSONObject()
            for d in definitions {
                defs[d.name] = write(d.schema, at: JSONPointer.appending("/$defs", d.name), depth: 0)
            }
            o["$defs"] = .object(defs)
            out = .object(o)
        }
        return out
    }

    // MARK: Writing

    /// `depth` counts objects entered through properties (OpenAI's nesting limit), not arrays or unions.
    mutating func write(_ s: OutputSchema, at p: String, depth: Int) -> JSONValue {
        checkNode(s, at: p, depth: depth)
        var o = JSONObject()
        func annotate(_ o: inout JSONObject) {
            if let t = s.title { o["title"] = .string(t) }
            if let d = s.description { o["description"] = .string(d) }
        }
        switch s.kind {
        case .any:
            annotate(&o)
        case .null:
            o["type"] = "null"
            annotate(&o)
        case .boolean:
            o["type"] = "boolean"
            annotate(&o)
        case .string(let str):
            o["type"] = "string"
            annotate(&o)
            writeString(str, into: &o)
        case .integer(let n):
            o["type"] = "integer"
            annotate(&o)
            SchemaExporter.writeNumber(n, into: &o)
        case .number(let n):
            o["type"] = "number"
            annotate(&o)
            SchemaExporter.writeNumber(n, into: &o)
        case .array(let a):
            o["type"] = "array"
            annotate(&o)
            o["items"] = write(a.items, at: p + "/items", depth: depth)
            if let k = a.minItems { o["minItems"] = .number(JSONNumber(k)) }
            if let k = a.maxItems { o["maxItems"] = .number(JSONNumber(k)) }
        case .object(let obj):
            o["type"] = "object"
            annotate(&o)
            writeObject(obj, into: &o, at: p, depth: depth)
        case .constant(let v):
            annotate(&o)
            if dialect == .gemini { o["enum"] = .array([v]) } else { o["const"] = v }
        case .enumeration(let vs):
            annotate(&o)
            o["enum"] = .array(vs)
        case .anyOf(let alts):
            annotate(&o)
            var items: [JSONValue] = []
            for (i, a) in alts.enumerated() { items.append(write(a, at: p + "/anyOf/\(i)", depth: depth)) }
            o["anyOf"] = .array(items)
        case .reference(let r):
            o["$ref"] = .string(r.pointer)
            // Gemini allows only `$`-keywords beside `$ref`; title and description are annotations, so
            // dropping them there changes what the model reads, never what it may output.
            if dialect != .gemini { annotate(&o) }
        }
        if let d = s.defaultValue { o["default"] = d }
        return .object(o)
    }

    func writeString(_ s: StringSchema, into o: inout JSONObject) {
        if dialect == .gemini, let c = s.constant {
            o["enum"] = .array([.string(c)])
        } else {
            if let vs = s.allowedValues { o["enum"] = .array(vs.map { .string($0) }) }
            if let c = s.constant { o["const"] = .string(c) }
        }
        if let k = s.minLength { o["minLength"] = .number(JSONNumber(k)) }
        if let k = s.maxLength { o["maxLength"] = .number(JSONNumber(k)) }
        if let r = s.pattern { o["pattern"] = .string(r) }
        if let f = s.format { o["format"] = .string(f.rawValue) }
    }

    static func writeNumber(_ n: NumberSchema, into o: inout JSONObject) {
        if let v = n.minimum { o["minimum"] = .number(v) }
        if let v = n.exclusiveMinimum { o["exclusiveMinimum"] = .number(v) }
        if let v = n.maximum { o["maximum"] = .number(v) }
        if let v = n.exclusiveMaximum { o["exclusiveMaximum"] = .number(v) }
        if let v = n.multipleOf { o["multipleOf"] = .number(v) }
    }

    mutating func writeObject(_ obj: ObjectSchema, into o: inout JSONObject, at p: String, depth: Int) {
        let allRequired = dialect == .openAIStrict
        if !obj.properties.isEmpty {
            var props = JSONObject()
            for prop in obj.properties {
                let pp = JSONPointer.appending(p + "/properties", prop.name)
                var v = write(prop.schema, at: pp, depth: depth + 1)
                if allRequired && !prop.isRequired { v = SchemaExporter.nullable(v, of: prop.schema) }
                props[prop.name] = v
            }
            o["properties"] = .object(props)
            let required = obj.properties.filter { allRequired || $0.isRequired }.map { JSONValue.string($0.name) }
            if !required.isEmpty { o["required"] = .array(required) }
            let order = JSONValue.array(obj.properties.map { .string($0.name) })
            if dialect == .foundationModels { o["x-order"] = order }
            if dialect == .gemini { o["propertyOrdering"] = order }
        }
        switch obj.additionalProperties {
        case .forbidden: o["additionalProperties"] = false
        case .allowed: break
        case .schema(let s): o["additionalProperties"] = write(s, at: p + "/additionalProperties", depth: depth + 1)
        }
    }

    /// An optional property made nullable for dialects that require every property: a `type` array for
    /// plain scalars, `anyOf` with null otherwise.
    static func nullable(_ v: JSONValue, of s: OutputSchema) -> JSONValue {
        switch s.kind {
        case .null, .any: return v
        case .anyOf(let alts) where alts.contains(where: { $0.kind == .null }): return v
        case .string(let str) where str.allowedValues == nil && str.constant == nil:
            return replacingType(v, "string")
        case .integer: return replacingType(v, "integer")
        case .number: return replacingType(v, "number")
        case .boolean: return replacingType(v, "boolean")
        default: return ["anyOf": [v, ["type": "null"]]]
        }
    }

    static func replacingType(_ v: JSONValue, _ name: String) -> JSONValue {
        guard case .object(var o) = v else { return v }
        o["type"] = [.string(name), "null"]
        return .object(o)
    }

    // MARK: Definitions and references

    mutating func hoistDefinitions(_ s: OutputSchema) throws(SchemaError) {
        for d in s.definitions {
            if let existing = definitions.first(where: { $0.name == d.name }) {
                guard existing.schema == d.schema else { throw .duplicateDefinition(name: d.name) }
            } else {
                definitions.append(d)
                try hoistDefinitions(d.schema)
            }
        }
        for child in s.children { try hoistDefinitions(child) }
    }

    func checkReferences(_ s: OutputSchema, at p: String) throws(SchemaError) {
        if case .reference(.definition(let name)) = s.kind, !definitions.contains(where: { $0.name == name }) {
            throw .unresolvedReference(reference: SchemaReference.definition(name).pointer, path: p)
        }
        for (token, child) in s.childrenWithPaths { try checkReferences(child, at: p + token) }
    }

    /// Targets ("#" or a definition name) reachable from themselves.
    func findRecursiveTargets(_ root: OutputSchema) -> Set<String> {
        var edges: [String: Set<String>] = ["#": root.referencedTargets]
        for d in definitions { edges[d.name] = d.schema.referencedTargets }
        var result: Set<String> = []
        for start in edges.keys {
            var seen: Set<String> = []
            var stack = Array(edges[start] ?? [])
            while let t = stack.popLast() {
                if t == start { result.insert(start); break }
                if seen.insert(t).inserted { stack.append(contentsOf: edges[t] ?? []) }
            }
        }
        return result
    }
}

extension OutputSchema {
    /// Direct subschemas (not through references), excluding definitions.
    var children: [OutputSchema] { childrenWithPaths.map(\.1) }

    /// Direct subschemas with the pointer suffix that reaches each.
    var childrenWithPaths: [(String, OutputSchema)] {
        switch kind {
        case .array(let a): return [("/items", a.items)]
        case .object(let o):
            var r = o.properties.map { (JSONPointer.appending("/properties", $0.name), $0.schema) }
            if case .schema(let s) = o.additionalProperties { r.append(("/additionalProperties", s)) }
            return r
        case .anyOf(let alts): return alts.enumerated().map { ("/anyOf/\($0.offset)", $0.element) }
        default: return []
        }
    }

    /// "#" or definition names referenced anywhere below this node (not following references).
    var referencedTargets: Set<String> {
        var r: Set<String> = []
        if case .reference(let ref) = kind {
            switch ref {
            case .root: r.insert("#")
            case .definition(let n): r.insert(n)
            }
        }
        for c in children { r.formUnion(c.referencedTargets) }
        return r
    }
}
