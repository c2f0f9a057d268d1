import GuidedSchema

/// Which keywords hold subschemas, per draft: the registry walk and pointer resolution need to know where
/// schemas are (an `$id` inside `enum` or `examples` is data, not an identifier).
enum SchemaKeywords {
    enum ChildKind: Equatable {
        case schema, schemaMap, schemaArray, schemaOrArray
    }

    static func childKind(_ key: String, draft: JSONSchemaDraft) -> ChildKind? {
        switch key {
        case "additionalProperties", "not": return .schema
        case "propertyNames", "contains": return draft.level >= JSONSchemaDraft.draft6.level ? .schema : nil
        case "if", "then", "else": return draft.level >= JSONSchemaDraft.draft7.level ? .schema : nil
        case "additionalItems": return draft.level <= JSONSchemaDraft.draft2019_09.level ? .schema : nil
        case "unevaluatedItems", "unevaluatedProperties", "contentSchema": return draft.level >= JSONSchemaDraft.draft2019_09.level ? .schema : nil
        case "items": return draft == .draft2020_12 ? .schema : .schemaOrArray
        case "properties", "patternProperties", "definitions": return .schemaMap
        case "$defs", "dependentSchemas": return draft.level >= JSONSchemaDraft.draft2019_09.level ? .schemaMap : nil
        case "dependencies": return .schemaMap
        case "allOf", "anyOf", "oneOf": return .schemaArray
        case "prefixItems": return draft == .draft2020_12 ? .schemaArray : nil
        default: return nil
        }
    }

    /// Calls `body` with each subschema written in schema object `o` under `draft`, in the order written:
    /// its keyword, the escaped pointer token below the keyword (a map's name, a list's index; nil where
    /// the keyword's value is the subschema), and the subschema. Keywords `skipping` names are passed over.
    static func forEachSubschema<E: Error>(
        in o: JSONObject, draft: JSONSchemaDraft, skipping: (String) -> Bool = { _ in false },
        _ body: (_ key: String, _ member: String?, _ child: JSONValue) throws(E) -> Void
    ) throws(E) {
        for (key, child) in o {
            guard let kind = childKind(key, draft: draft), !skipping(key) else { continue }
            switch (kind, child) {
            case (.schemaMap, .object(let m)):
                for (name, sub) in m { try body(key, SchemaDocument.escape(name), sub) }
            case (.schemaArray, .array(let a)), (.schemaOrArray, .array(let a)):
                for (i, sub) in a.enumerated() { try body(key, String(i), sub) }
            case (.schema, _), (.schemaOrArray, _):
                try body(key, nil, child)
            default:
                break
            }
        }
    }

    /// Keywords that only annotate or structure the document: no effect on validity.
    static func isInert(_ key: String, draft: JSONSchemaDraft) -> Bool {
        switch key {
        case "$schema", "$comment", "title", "description", "default", "examples", "readOnly", "writeOnly",
             "deprecated", "contentSchema", "$vocabulary",
             "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$defs", "definitions":
            return true
        // Content keywords only annotate from 2019-09 on; draft 6/7 let validators assert them.
        case "contentMediaType", "contentEncoding": return draft.level >= JSONSchemaDraft.draft2019_09.level || draft == .draft4
        case "$id": return draft.level >= JSONSchemaDraft.draft6.level
        case "id": return draft == .draft4
        default: return false
        }
    }

    /// Whether `key` can affect validity in a negation: not inert, and defined by some draft. A word no
    /// draft defines (`name`, `x-order`, a typo) is an annotation, which the lowering ignores too, so
    /// `not: {pattern: p, name: n}` is the complement of the pattern alone.
    static func isEffective(_ key: String, draft: JSONSchemaDraft) -> Bool {
        !isInert(key, draft: draft) && KeywordCatalog.drafts[key] != nil
    }

    /// Validation keywords of the draft that the compiler does not enforce.
    static func isRefused(_ key: String, draft: JSONSchemaDraft) -> Bool {
        switch key {
        case "unevaluatedProperties", "unevaluatedItems": return draft.level >= JSONSchemaDraft.draft2019_09.level
        case "$recursiveRef": return draft == .draft2019_09
        case "$dynamicRef": return draft == .draft2020_12
        case "contentMediaType", "contentEncoding": return draft == .draft6 || draft == .draft7
        default: return false
        }
    }
}
