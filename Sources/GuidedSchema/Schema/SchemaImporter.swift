/// Reads one JSON Schema document into an `OutputSchema`, refusing what the schema type cannot hold.
struct SchemaImporter {
    let draft: JSONSchemaDraft
    let root: JSONValue

    /// Annotations with no effect on validity that `OutputSchema` does not keep.
    static let ignoredAnnotations: Set<String> = ["$comment", "examples", "deprecated", "readOnly", "writeOnly"]
    static let stringKeywords: Set<String> = ["minLength", "maxLength", "pattern", "format"]
    static let numberKeywords: Set<String> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]
    static let arrayKeywords: Set<String> = ["items", "minItems", "maxItems"]
    static let objectKeywords: Set<String> = ["properties", "required", "additionalProperties", "x-order", "propertyOrdering"]
    static let annotationKeywords: Set<String> = ["title", "description", "default"]
    static let typeNames = ["null", "boolean", "object", "array", "number", "integer", "string"]

    init(draft: JSONSchemaDraft, root: JSONValue) {
        self.draft = draft
        self.root = root
    }

    mutating func importRoot() throws(SchemaError) -> OutputSchema {
        var definitions: [SchemaDefinition] = []
        if case .object(let o) = root {
            for key in ["$defs", "definitions"] {
                guard let defs = o[key] else { continue }
                guard case .object(let members) = defs else {
                    throw .invalidSchema(keyword: key, pointer: "", reason: "must be an object of schemas")
                }
                for (name, sub) in members {
                    guard !definitions.contains(where: { $0.name == name }) else {
                        throw .unsupportedKeyword(keyword: key, pointer: "", reason: "definition \"\(name)\" appears in both $defs and definitions")
                    }
                    let p = JSONPointer.appending("/" + key, name)
                    definitions.append(SchemaDefinition(name, try node(sub, at: p)))
                }
            }
        }
        var schema = try node(root, at: "", isRoot: true)
        schema.definitions = definitions
        try checkReferencesResolve(schema, definitions: definitions, at: "")
        for d in definitions {
            try checkReferencesResolve(d.schema, definitions: definitions, at: JSONPointer.appending("/$defs", d.name))
        }
        return schema
    }

    func checkReferencesResolve(_ s: OutputSchema, definitions: [SchemaDefinition], at p: String) throws(SchemaError) {
        if case .reference(.definition(let n)) = s.kind, !definitions.contains(where: { $0.name == n }) {
            throw .invalidSchema(keyword: "$ref", pointer: p, reason: "no definition named \"\(n)\"")
        }
        for (token, child) in s.childrenWithPaths {
            try checkReferencesResolve(child, definitions: definitions, at: p + token)
        }
    }

    // MARK: One schema object

    func node(_ value: JSONValue, at p: String, isRoot: Bool = false) throws(SchemaError) -> OutputSchema {
        switch value {
        case .bool where !draft.allowsBooleanSchemas:
            throw .invalidSchema(keyword: "", pointer: p, reason: "draft 4 has no boolean schemas")
        case .bool(true): return .any
        case .bool(false):
            throw .unsupportedKeyword(keyword: "false", pointer: p, reason: "the false schema (no valid value) cannot be represented")
        case .object(let o): return try objectNode(o, at: p, isRoot: isRoot)
        default:
            throw .invalidSchema(keyword: "", pointer: p, reason: "a schema must be an object or a boolean, not \(value.typeName)")
        }
    }

    func objectNode(_ o: JSONObject, at p: String, isRoot: Bool) throws(SchemaError) -> OutputSchema {
        // Reject unknown keywords first, in document order, so the error names the first one written.
        for key in o.keys {
            if SchemaImporter.ignoredAnnotations.contains(key) || SchemaImporter.annotationKeywords.contains(key) { continue }
            if SchemaImporter.stringKeywords.contains(key) || SchemaImporter.numberKeywords.contains(key)
                || SchemaImporter.arrayKeywords.contains(key) || SchemaImporter.objectKeywords.contains(key)
            { continue }
            switch key {
            case "type", "enum", "const", "anyOf", "$ref": continue
            case "$schema" where isRoot: continue
            case "$defs", "definitions":
                if isRoot { continue }
                throw .unsupportedKeyword(keyword: key, pointer: p, reason: "definitions are supported only at the root")
            case "id" where draft == .draft4:
                throw .unsupportedKeyword(keyword: key, pointer: p, reason: "base URI changes are not supported")
            default:
                throw .unsupportedKeyword(keyword: key, pointer: p, reason: SchemaImporter.refusal(for: key))
            }
        }
        var schema = try kindNode(o, at: p)
        if let t = o["title"] {
            guard let s = t.stringValue else { throw .invalidSchema(keyword: "title", pointer: p, reason: "must be a string") }
            schema.title = s
        }
        if let d = o["description"] {
            guard let s = d.stringValue else { throw .invalidSchema(keyword: "description", pointer: p, reason: "must be a string") }
            schema.description = s
        }
        if let d = o["default"] { schema.defaultValue = d }
        return schema
    }

    static func refusal(for key: String) -> String {
        switch key {
        case "allOf", "oneOf", "not", "if", "then", "else":
            return "OutputSchema has no \(key); rewrite it with anyOf, enum or separate properties"
        case "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies",
            "unevaluatedProperties", "minProperties", "maxProperties":
            return "OutputSchema objects have named properties or one value schema only"
        case "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "uniqueItems", "unevaluatedItems":
            return "OutputSchema arrays have one item schema and item counts only"
        case "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary":
            return "only local references to the root or its definitions are supported"
        case "contentEncoding", "contentMediaType", "contentSchema":
            return "content keywords are not supported"
        default:
            return "not a keyword OutputSchema can represent"
        }
    }

    /// Picks the node's kind from `type`, `$ref`, `anyOf`, `const` or `enum`.
    func kindNode(_ o: JSONObject, at p: String) throws(SchemaError) -> OutputSchema {
        let heads = ["$ref", "anyOf", "type"].filter { o[$0] != nil }
        if heads.count > 1 {
            throw .unsupportedKeyword(keyword: heads[1], pointer: p, reason: "cannot be combined with \"\(heads[0])\" in one schema")
        }
        if let ref = o["$ref"] {
            try refuseConstraints(o, at: p, beside: "$ref", allowed: [])
            return OutputSchema(.reference(try reference(ref, at: p)))
        }
        if let alts = o["anyOf"] {
            try refuseConstraints(o, at: p, beside: "anyOf", allowed: [])
            guard case .array(let items) = alts, !items.isEmpty else {
                throw .invalidSchema(keyword: "anyOf", pointer: p, reason: "must be a non-empty array of schemas")
            }
            var schemas: [OutputSchema] = []
            for (i, item) in items.enumerated() { schemas.append(try node(item, at: p + "/anyOf/\(i)")) }
            return .anyOf(schemas)
        }
        guard let type = o["type"] else {
            if o["const"] != nil || o["enum"] != nil {
                try refuseConstraints(o, at: p, beside: o["const"] != nil ? "const" : "enum", allowed: [])
                if let c = o["const"] {
                    if o["enum"] != nil {
                        throw .unsupportedKeyword(keyword: "enum", pointer: p, reason: "cannot be combined with \"const\" in one schema")
                    }
                    return OutputSchema(.constant(c))
                }
                return OutputSchema(.enumeration(try enumValues(o, at: p, matching: nil)))
            }
            try refuseConstraints(o, at: p, beside: nil, allowed: [])
            return .any
        }
        let names = try typeNames(type, at: p)
        if names.count == 1 { return try typedNode(names[0], o, at: p) }
        // A type list becomes anyOf of one branch per type, each with the keywords that apply to it.
        if o["const"] != nil || o["enum"] != nil {
            try refuseConstraints(o, at: p, beside: "type", allowed: [])
            let values = try enumValues(o, at: p, matching: names)
            return OutputSchema(values.count == 1 && o["const"] != nil ? .constant(values[0]) : .enumeration(values))
        }
        var applicable: Set<String> = []
        for n in names { applicable.formUnion(SchemaImporter.keywords(for: n)) }
        try refuseConstraints(o, at: p, beside: "type", allowed: applicable)
        var branches: [OutputSchema] = []
        for n in names { branches.append(try typedNode(n, o, at: p, checkOthers: false)) }
        return .anyOf(branches)
    }

    static func keywords(for type: String) -> Set<String> {
        switch type {
        case "string": return stringKeywords
        case "integer", "number": return numberKeywords
        case "array": return arrayKeywords
        case "object": return objectKeywords
        default: return []
        }
    }

    /// Refuses type-specific keywords in `o` other than `allowed`: beside `$ref`/`anyOf`/`enum` they would
    /// constrain together (which the schema type cannot hold); without `type` they would let every other
    /// type through.
    func refuseConstraints(_ o: JSONObject, at p: String, beside head: String?, allowed: Set<String>) throws(SchemaError) {
        for key in o.keys where !allowed.contains(key) {
            let isEnumLike = key == "enum" || key == "const"
            guard SchemaImporter.isTypeSpecific(key) || isEnumLike else { continue }
            // enum/const beside type, or beside each other, are handled by the caller.
            if isEnumLike && (head == "type" || head == "enum" || head == "const") { continue }
            if let head {
                if head == "$ref" && draft.refOverridesSiblings {
                    throw .unsupportedKeyword(keyword: key, pointer: p, reason: "is ignored beside $ref in \(draft.rawValue); remove it")
                }
                if head == "type" {
                    throw .unsupportedKeyword(keyword: key, pointer: p, reason: "does not apply to the listed type; remove it")
                }
                throw .unsupportedKeyword(keyword: key, pointer: p, reason: "cannot be combined with \"\(head)\" in one schema")
            }
            throw .unsupportedKeyword(
                keyword: key, pointer: p,
                reason: "without \"type\" it leaves every other type unconstrained, which OutputSchema cannot represent; add \"type\"")
        }
    }

    static func isTypeSpecific(_ key: String) -> Bool {
        stringKeywords.contains(key) || numberKeywords.contains(key) || arrayKeywords.contains(key)
            || objectKeywords.contains(key)
    }

    func typeNames(_ type: JSONValue, at p: String) throws(SchemaError) -> [String] {
        var names: [String] = []
        switch type {
        case .string(let s): names = [s]
        case .array(let items):
            for item in items {
                guard let s = item.stringValue else {
                    throw .invalidSchema(keyword: "type", pointer: p, reason: "type names must be strings")
                }
                guard !names.contains(s) else {
                    throw .invalidSchema(keyword: "type", pointer: p, reason: "type \"\(s)\" listed twice")
                }
                names.append(s)
            }
        default: throw .invalidSchema(keyword: "type", pointer: p, reason: "must be a string or an array of strings")
        }
        guard !names.isEmpty else { throw .invalidSchema(keyword: "type", pointer: p, reason: "must name at least one type") }
        for n in names where !SchemaImporter.typeNames.contains(n) {
            throw .invalidSchema(keyword: "type", pointer: p, reason: "unknown type \"\(n)\"")
        }
        return names
    }

    /// `enum` (or `const`) values, keeping only those of the listed types (others could never validate).
    func enumValues(_ o: JSONObject, at p: String, matching types: [String]?) throws(SchemaError) -> [JSONValue] {
        let keyword = o["const"] != nil ? "const" : "enum"
        var values: [JSONValue]
        if let c = o["const"] {
            if o["enum"] != nil {
                throw .unsupportedKeyword(keyword: "enum", pointer: p, reason: "cannot be combined with \"const\" in one schema")
            }
            values = [c]
        } else {
            guard case .array(let vs) = o["enum"] ?? .null else {
                throw .invalidSchema(keyword: "enum", pointer: p, reason: "must be an array")
            }
            values = []
            for v in vs where !values.contains(v) { values.append(v) }
        }
        if let types {
            values = values.filter { v in types.contains { SchemaImporter.value(v, hasType: $0) } }
            guard !values.isEmpty else {
                throw .unsupportedKeyword(keyword: keyword, pointer: p, reason: "no value has the listed type, so nothing is valid")
            }
        }
        return values
    }

    static func value(_ v: JSONValue, hasType t: String) -> Bool {
        if t == "integer", case .number(let n) = v { return n.isInteger }
        return v.typeName == t
    }

    func reference(_ ref: JSONValue, at p: String) throws(SchemaError) -> SchemaReference {
        guard let s = ref.stringValue else { throw .invalidSchema(keyword: "$ref", pointer: p, reason: "must be a string") }
        if s == "#" { return .root }
        for prefix in ["#/$defs/", "#/definitions/"] where s.hasPrefix(prefix) {
            let token = String(s.dropFirst(prefix.count))
            guard !token.contains("/") else { break }
            let name = JSONPointer.unescape(token.removingPercentEncodingIfNeeded)
            return .definition(name)
        }
        throw .unsupportedKeyword(keyword: "$ref", pointer: p, reason: "\"\(s)\" is not \"#\" or a root definition (#/$defs/NAME)")
    }
}

extension String {
    /// `$ref` fragments are URI-encoded; decode `%XX` escapes (names rarely need them).
    var removingPercentEncodingIfNeeded: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var it = Array(utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%"), it.count >= 2,
                let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
