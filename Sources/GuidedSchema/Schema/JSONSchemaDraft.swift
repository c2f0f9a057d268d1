/// The JSON Schema drafts `OutputSchema(jsonSchema:)` reads. They differ, for what the schema type can
/// hold, in `exclusiveMinimum`/`exclusiveMaximum` (booleans in draft 4), `definitions` vs `$defs`, and
/// whether keywords beside `$ref` apply (ignored before 2019-09).
public enum JSONSchemaDraft: String, Sendable, Hashable, CaseIterable {
    case draft4, draft6, draft7, draft2019_09, draft2020_12

    /// The draft a `$schema` URI names, or nil for an unknown one.
    public init?(schemaURI: String) {
        var uri = schemaURI
        if uri.hasSuffix("#") { uri.removeLast() }
        if uri.hasPrefix("https://") { uri = "http://" + uri.dropFirst("https://".count) }
        switch uri {
        case "http://json-schema.org/draft-04/schema": self = .draft4
        case "http://json-schema.org/draft-06/schema": self = .draft6
        case "http://json-schema.org/draft-07/schema": self = .draft7
        case "http://json-schema.org/draft/2019-09/schema": self = .draft2019_09
        case "http://json-schema.org/draft/2020-12/schema": self = .draft2020_12
        default: return nil
        }
    }

    /// Before 2019-09 a `$ref` replaces its schema object and sibling keywords are ignored.
    var refIgnoresSiblings: Bool { self == .draft4 || self == .draft6 || self == .draft7 }
}
