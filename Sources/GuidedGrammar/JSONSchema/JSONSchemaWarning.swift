import GuidedSchema

/// Something in a schema that compiles but probably does not mean what its author thinks: a keyword the
/// schema's draft ignores. The specification says validators ignore unknown keywords, so a typo such as
/// `propertis` silently turns a constrained object into "any object"; the compiler follows the
/// specification and says so here. `description` reads like
/// `unknown keyword 'propertis' at /properties/a: did you mean 'properties'?; ignored`.
public struct JSONSchemaWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// A keyword of no draft (extension keywords spelled `x-…` are not reported).
        case unknownKeyword
        /// A keyword of other drafts than the one the schema is read as (`prefixItems` in draft 7,
        /// `additionalItems` in 2020-12).
        case otherDraftKeyword
        /// A keyword beside `$ref` in drafts 4-7, where `$ref` makes its siblings ignored.
        case ignoredBesideReference
        /// A `format` no draft defines (`color`, `int64`, `semver`): an annotation, so it does not
        /// constrain the string (`keyword` is `format`, `format` names it). With
        /// `unknownFormats: .refuse` the compile fails on it instead.
        case unknownFormat
        /// A `format` of other drafts than the schema's (`uuid` in draft 7, `regex` in draft 4): enforced
        /// (or refused) as those drafts define it, which is stricter than the schema's draft asks.
        case otherDraftFormat
        /// A boolean where draft 4 expects a schema (draft 4 has boolean schemas only as the values of
        /// `additionalProperties` and `additionalItems`): read as later drafts read it, `true` allowing
        /// any value and `false` none (`keyword` is the keyword holding it, "" at the root).
        case draft4BooleanSchema
        /// An object whose `minProperties` only two or more undeclared members could reach (a map of
        /// at least two entries, `keyword` is `minProperties`): undeclared members count as one at most
        /// toward it, because no grammar keeps their keys distinct, so no such object is accepted (a
        /// departure; where the object is required, nothing at all is).
        case minimumByUndeclaredMembers

        /// Whether the warning is about a keyword the draft ignores, the kinds
        /// `JSONSchemaCompileOptions.ignoredKeywords` governs.
        public var isIgnoredKeyword: Bool { self == .unknownKeyword || self == .otherDraftKeyword || self == .ignoredBesideReference }
    }

    public let kind: Kind
    public let keyword: String
    /// JSON pointer of the schema object holding the keyword ("" for the root).
    public let pointer: String
    /// The specifics: a likely intended keyword, the drafts that know the keyword or format, or how a
    /// draft-4 boolean schema is read.
    public let detail: String
    /// The format name of an `.unknownFormat` or `.otherDraftFormat` warning ("" for the other kinds).
    public let format: String

    public init(_ kind: Kind, keyword: String, pointer: String, detail: String = "", format: String = "") {
        self.kind = kind
        self.keyword = keyword
        self.pointer = pointer
        self.detail = detail
        self.format = format
    }

    /// E.g. `unknown keyword 'propertis' at /properties/a: did you mean 'properties'?; ignored`,
    /// `format 'color' at /properties/c: a format no draft defines; ignored`,
    /// `format 'uuid' at /u: a format of drafts 2019-09 and 2020-12, not of draft 7; enforced as they define it`,
    /// `boolean schema at /items: draft 4 has no boolean schemas; read as in later drafts (true: any value)`.
    public var description: String {
        let at = pointer.isEmpty ? "at the root" : "at \(pointer)"
        switch kind {
        case .unknownKeyword: return "unknown keyword '\(keyword)' \(at): \(reason); ignored"
        case .otherDraftKeyword, .ignoredBesideReference: return "keyword '\(keyword)' \(at): \(reason); ignored"
        case .unknownFormat: return "format '\(format)' \(at): \(reason); ignored"
        case .otherDraftFormat: return "format '\(format)' \(at): \(reason); enforced as they define it"
        case .draft4BooleanSchema: return "boolean schema \(at): \(reason)"
        case .minimumByUndeclaredMembers: return "keyword '\(keyword)' \(at): \(reason); no such object is accepted"
        }
    }

    /// Why the keyword has no effect, e.g. `did you mean 'properties'?` or
    /// `a keyword of draft 2020-12, not of draft 7`.
    public var reason: String {
        switch kind {
        case .unknownKeyword: return detail.isEmpty ? "a keyword of no draft" : detail
        case .otherDraftKeyword, .ignoredBesideReference, .unknownFormat, .otherDraftFormat, .draft4BooleanSchema,
             .minimumByUndeclaredMembers: return detail
        }
    }

    /// Why `format: name` is an annotation in `draft`: `a format no draft defines`, or
    /// `a format of drafts 2019-09 and 2020-12, not of draft 7`.
    static func formatReason(_ name: String, draft: JSONSchemaDraft) -> String {
        guard let first = JSONSchemaDraft.firstDefining(format: name) else { return "a format no draft defines" }
        let last = JSONSchemaDraft.draft2020_12.level
        return "a format of \(KeywordCatalog.describe(first.level...last)), not of \(KeywordCatalog.describe(draft.level...draft.level))"
    }
}

/// A compiled schema with what the compiler noticed on the way.
public struct JSONSchemaCompilation: Sendable {
    public let grammar: Grammar
    /// In document order (a parent's keywords before its subschemas').
    public let warnings: [JSONSchemaWarning]
}
