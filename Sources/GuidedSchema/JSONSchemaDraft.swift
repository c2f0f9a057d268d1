/// The JSON Schema dialects the validator knows; each keyword's meaning is chosen by the dialect of the
/// schema resource it appears in.
public enum JSONSchemaDraft: String, Sendable, CaseIterable, Comparable {
    case draft4
    case draft6
    case draft7
    case draft2019_09 = "draft2019-09"
    case draft2020_12 = "draft2020-12"

    /// The dialect a `$schema` URI names, or nil for an unknown one (the caller's default then applies).
    public init?(schemaURI: String) {
        var uri = schemaURI
        if uri.hasSuffix("#") { uri.removeLast() }
        if uri.hasPrefix("https://") { uri = "http://" + uri.dropFirst("https://".count) }
        switch uri {
        case "http://json-schema.org/draft-04/schema", "http://json-schema.org/schema": self = .draft4
        case "http://json-schema.org/draft-06/schema": self = .draft6
        case "http://json-schema.org/draft-07/schema": self = .draft7
        case "http://json-schema.org/draft/2019-09/schema": self = .draft2019_09
        case "http://json-schema.org/draft/2020-12/schema": self = .draft2020_12
        default: return nil
        }
    }

    /// The folder name the JSON Schema Test Suite uses (`draft4`, ..., `draft2020-12`).
    public var suiteName: String { rawValue }

    /// The draft a JSON Schema Test Suite folder name designates.
    public init?(suiteName: String) { self.init(rawValue: suiteName) }

    public static func < (a: JSONSchemaDraft, b: JSONSchemaDraft) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Draft 4 spells the identifier `id`; later drafts `$id`.
    var idKeyword: String { self == .draft4 ? "id" : "$id" }

    /// Before 2019-09 a `$ref` makes every sibling keyword (including `$id`) ignored.
    var refOverridesSiblings: Bool { self <= .draft7 }

    /// Boolean schemas exist from draft 6 on (draft 4 treats a boolean where a schema goes as an error).
    var allowsBooleanSchemas: Bool { self >= .draft6 }
}
