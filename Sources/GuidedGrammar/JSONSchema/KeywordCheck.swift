import GuidedSchema

/// Finds the keywords a schema's draft ignores, the formats it does not define and, in draft 4, boolean
/// schemas (`JSONSchemaWarning`), walking every schema position the
/// draft defines: the children of `properties`, `items`, `allOf`, … as `SchemaKeywords` lists them.
/// Keywords the draft ignores are not descended into: their values are data, not schemas, to it.
/// Cost: one pass over the schema's objects, run only when warnings are asked for or refused.
struct KeywordCheck {
    let draft: JSONSchemaDraft
    private(set) var warnings: [JSONSchemaWarning] = []

    init(draft: JSONSchemaDraft) { self.draft = draft }

    static func warnings(in root: JSONValue, draft: JSONSchemaDraft) -> [JSONSchemaWarning] {
        var check = KeywordCheck(draft: draft)
        var path: [String] = []
        check.visit(root, path: &path)
        return check.warnings
    }

    /// `holder` is the keyword whose value (or member or item of whose value, `inCollection`) `value` is.
    private mutating func visit(_ value: JSONValue, path: inout [String], holder: String = "", inCollection: Bool = false) {
        let pointer = path.isEmpty ? "" : "/" + path.joined(separator: "/")
        // Draft 4's own booleans are the values of `additionalProperties` and `additionalItems` (told by
        // how the walk got here, so a member *named* `additionalProperties` is not one); others are read
        // as later drafts read them, with a warning.
        if case .bool(let b) = value, draft == .draft4,
           inCollection || (holder != "additionalProperties" && holder != "additionalItems") {
            warnings.append(JSONSchemaWarning(.draft4BooleanSchema, keyword: holder, pointer: pointer,
                                              detail: "draft 4 has no boolean schemas; read as in later drafts (\(b ? "true: any value" : "false: no value"))"))
        }
        guard case .object(let o) = value else { return }
        let hiddenByReference = draft.level <= JSONSchemaDraft.draft7.level && o["$ref"] != nil
        for (key, _) in o {
            if let w = warning(for: key, at: pointer, besideReference: hiddenByReference) { warnings.append(w) }
        }
        if !hiddenByReference, case .string(let name)? = o["format"], !draft.definedFormats.contains(name) {
            let kind: JSONSchemaWarning.Kind = JSONSchemaDraft.firstDefining(format: name) == nil ? .unknownFormat : .otherDraftFormat
            warnings.append(JSONSchemaWarning(kind, keyword: "format", pointer: pointer,
                                              detail: JSONSchemaWarning.formatReason(name, draft: draft), format: name))
        }
        // Siblings of a `$ref` are still descended into: `definitions` beside a root `$ref` is where the
        // reference usually points.
        SchemaKeywords.forEachSubschema(in: o, draft: draft, skipping: { !(KeywordCatalog.drafts[$0]?.contains(draft.level) ?? false) }) {
            key, member, child in
            path.append(SchemaDocument.escape(key))
            if let member { path.append(member) }
            defer { path.removeLast(member == nil ? 1 : 2) }
            visit(child, path: &path, holder: key, inCollection: member != nil)
        }
    }

    private func warning(for key: String, at pointer: String, besideReference: Bool) -> JSONSchemaWarning? {
        // Extension keywords (OpenAPI's `x-…`) announce themselves as such.
        if key.hasPrefix("x-") { return nil }
        guard let levels = KeywordCatalog.drafts[key] else {
            let guess = KeywordCatalog.suggestion(for: key, draft: draft).map { "did you mean '\($0)'?" } ?? ""
            return JSONSchemaWarning(.unknownKeyword, keyword: key, pointer: pointer, detail: guess)
        }
        guard levels.contains(draft.level) else {
            return JSONSchemaWarning(.otherDraftKeyword, keyword: key, pointer: pointer,
                                     detail: "a keyword of \(KeywordCatalog.describe(levels)), not of \(KeywordCatalog.describe(draft.level...draft.level))")
        }
        if besideReference, key != "$ref", !SchemaKeywords.isInert(key, draft: draft), key != "$schema" {
            return JSONSchemaWarning(.ignoredBesideReference, keyword: key, pointer: pointer,
                                     detail: "beside '$ref', which makes its siblings ignored in \(KeywordCatalog.describe(draft.level...draft.level))")
        }
        return nil
    }
}
