extension OutputSchema {
    /// Imports a JSON Schema (drafts 4 to 2020-12), keeping property order; `x-order` (FoundationModels)
    /// and `propertyOrdering` (Gemini) reorder properties when present.
    ///
    /// The schema type is typed and closed, so some JSON Schema cannot be held: keywords such as `allOf`,
    /// `not`, `if`, `patternProperties`, `prefixItems`, remote or anchor `$ref`s, and type-specific keywords
    /// without a `type` (which would let every other type through). Those are refused, never dropped.
    ///
    /// - Parameter draft: the draft to read with; by default the one `$schema` names, else 2020-12.
    /// - Throws: `SchemaError.unsupportedKeyword` or `.invalidSchema`, naming the keyword and the JSON
    ///   Pointer of the schema object that holds it.
    public init(jsonSchema: JSONValue, draft: JSONSchemaDraft? = nil) throws(SchemaError) {
        var chosen = draft ?? .draft2020_12
        if draft == nil, case .object(let o) = jsonSchema, let uri = o["$schema"] {
            guard let s = uri.stringValue, let d = JSONSchemaDraft(schemaURI: s) else {
                throw .unsupportedKeyword(keyword: "$schema", pointer: "", reason: "unknown dialect \(uri.serialized())")
            }
            chosen = d
        }
        var importer = SchemaImporter(draft: chosen, root: jsonSchema)
        self = try importer.importRoot()
    }

    /// Parses JSON Schema text, then imports it (parse errors become `.invalidSchema` with the position).
    public init(jsonSchemaText text: String, draft: JSONSchemaDraft? = nil) throws(SchemaError) {
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch {
            throw .invalidSchema(keyword: "", pointer: "", reason: error.description)
        }
        try self.init(jsonSchema: value, draft: draft)
    }
}
