/// A schema in place: its JSON, the base URI its relative references resolve against, and the dialect
/// its keywords are read in.
struct SchemaNode: Sendable {
    var value: JSONValue
    var base: String
    var draft: JSONSchemaDraft
    /// False under a meta-schema whose `$vocabulary` leaves out the validation vocabulary: then `type`,
    /// `minimum`, `required`, ... are annotations only. Applicators still apply.
    var validationVocabulary = true
    /// True under a meta-schema that lists the format-assertion vocabulary: `format` then asserts even
    /// when `Options.formatAssertion` is off.
    var formatAssertionVocabulary = false

    /// The node as seen from inside: an identifier (`$id`, draft 4 `id`) moves the base URI, and a
    /// `$schema` naming a known dialect switches the dialect. A `$ref` sibling hides the identifier in
    /// drafts before 2019-09.
    func entered() -> SchemaNode {
        guard case .object(let o) = value else { return self }
        var node = self
        if let s = o["$schema"]?.stringValue, let d = JSONSchemaDraft(schemaURI: s) { node.draft = d }
        if let newBase = SchemaNode.identifiedBase(o, base: base, draft: node.draft) { node.base = newBase }
        return node
    }

    /// The base URI an object's identifier sets, or nil when it sets none (absent, anchor-only, or hidden).
    static func identifiedBase(_ o: JSONObject, base: String, draft: JSONSchemaDraft) -> String? {
        if draft.refOverridesSiblings, o["$ref"] != nil { return nil }
        guard let id = o[draft.idKeyword]?.stringValue else { return nil }
        if id.hasPrefix("#") { return nil }
        return URIReference.split(URIReference.resolve(id, against: base)).base
    }
}
