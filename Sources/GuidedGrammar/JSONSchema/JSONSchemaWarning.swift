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
    }

    public let kind: Kind
    public let keyword: String
    /// JSON pointer of the schema object holding the keyword ("" for the root).
    public let pointer: String
    /// The specifics: a likely intended keyword, or the drafts that know the keyword.
    public let detail: String

    public init(_ kind: Kind, keyword: String, pointer: String, detail: String = "") {
        self.kind = kind
        self.keyword = keyword
        self.pointer = pointer
        self.detail = detail
    }

    public var description: String {
        "\(kind == .unknownKeyword ? "unknown keyword" : "keyword") '\(keyword)' "
            + (pointer.isEmpty ? "at the root" : "at \(pointer)") + ": \(reason); ignored"
    }

    /// Why the keyword has no effect, e.g. `did you mean 'properties'?` or
    /// `a keyword of draft 2020-12, not of draft 7`.
    public var reason: String {
        switch kind {
        case .unknownKeyword: return detail.isEmpty ? "a keyword of no draft" : detail
        case .otherDraftKeyword, .ignoredBesideReference: return detail
        }
    }
}

/// A compiled schema with what the compiler noticed on the way.
public struct JSONSchemaCompilation: Sendable {
    public let grammar: Grammar
    /// In document order (a parent's keywords before its subschemas').
    public let warnings: [JSONSchemaWarning]
}
