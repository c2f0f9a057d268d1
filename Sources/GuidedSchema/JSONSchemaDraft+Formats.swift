/// The `format` values each draft's validation specification defines.
///
/// Every draft says a validator must not fail an instance on a format it does not know: a format name no
/// draft defines (`color`, `semver`, `int64`) is an annotation. A name of another draft than the schema's
/// (`uuid` in a draft-7 schema) is checked all the same by the validator and the compiler, as common
/// validators (python-jsonschema's `FormatChecker()`) do and real schemas expect: stricter than the draft
/// asks, never looser. The lists follow the drafts' "Defined Formats" sections, which the JSON Schema Test Suite mirrors in
/// `tests/<draft>/optional/format/`:
///
/// | draft | adds |
/// |---|---|
/// | 4 | date-time, email, hostname, ipv4, ipv6, uri |
/// | 6 | uri-reference, uri-template, json-pointer |
/// | 7 | date, time, idn-email, idn-hostname, iri, iri-reference, relative-json-pointer, regex |
/// | 2019-09, 2020-12 | duration, uuid |
extension JSONSchemaDraft {
    /// The format names this draft defines (each draft keeps every format of the drafts before it).
    public var definedFormats: Set<String> {
        switch self {
        case .draft4: return Self.draft4Formats
        case .draft6: return Self.draft6Formats
        case .draft7: return Self.draft7Formats
        case .draft2019_09, .draft2020_12: return Self.draft2019Formats
        }
    }

    // Built once: the validator asks for every string it checks against a `format`.
    private static let draft4Formats: Set<String> = ["date-time", "email", "hostname", "ipv4", "ipv6", "uri"]
    private static let draft6Formats = draft4Formats.union(["uri-reference", "uri-template", "json-pointer"])
    private static let draft7Formats = draft6Formats.union([
        "date", "time", "idn-email", "idn-hostname", "iri", "iri-reference", "relative-json-pointer", "regex",
    ])
    private static let draft2019Formats = draft7Formats.union(["duration", "uuid"])

    /// Every format name some draft defines (those of 2020-12, which keeps all earlier ones).
    public static var allDefinedFormats: Set<String> { draft2019Formats }

    /// The first draft that defines `format`, or nil when none does.
    public static func firstDefining(format: String) -> JSONSchemaDraft? {
        allCases.first { $0.definedFormats.contains(format) }
    }
}
