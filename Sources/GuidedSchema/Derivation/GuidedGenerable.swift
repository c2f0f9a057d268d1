/// A Swift type whose values a model generates: its `outputSchema` comes from its `Decodable`
/// conformance unless `declaredSchema` is written by hand.
///
/// ```swift
/// struct Person: Decodable, GuidedGenerable {
///     let name: String
///     let age: Int
///     let nickname: String?
///     static let schemaDescription: String? = "A person"
///     static var schemaHints: [PropertyHint] {
///         [PropertyHint("age", description: "Age in years", guides: .range(0...150))]
///     }
/// }
/// let schema = try Person.outputSchema
/// ```
///
/// The name differs from FoundationModels' `Generable` so both modules can be imported together.
public protocol GuidedGenerable: Decodable {
    /// Describes the type to the model (the node's `description`). Default: none.
    static var schemaDescription: String? { get }
    /// Descriptions and guides for properties, keyed by their JSON key (the `CodingKey` string, which is the
    /// property name unless `CodingKeys` renames it). A hint for a key the type does not decode is an error.
    static var schemaHints: [PropertyHint] { get }
    /// A hand-written schema used instead of derivation (by this type and wherever it is nested).
    /// Default: nil, derive.
    static var declaredSchema: OutputSchema? { get throws(SchemaError) }
}

extension GuidedGenerable {
    public static var schemaDescription: String? { nil }
    public static var schemaHints: [PropertyHint] { [] }
    public static var declaredSchema: OutputSchema? { nil }

    /// The type's schema: `declaredSchema` if given, else derived from `init(from:)` (see
    /// `OutputSchema.derived(from:)`).
    public static var outputSchema: OutputSchema {
        get throws(SchemaError) {
            if let declared = try declaredSchema { return declared }
            return try OutputSchema.derived(from: Self.self)
        }
    }
}

/// A description and guides for one property of a `GuidedGenerable` type.
public struct PropertyHint: Sendable, Hashable {
    /// The property's JSON key.
    public var property: String
    public var description: String?
    public var guides: [SchemaGuide]

    public init(_ property: String, description: String? = nil, guides: SchemaGuide...) {
        self.property = property
        self.description = description
        self.guides = guides
    }

    public init(_ property: String, description: String? = nil, guides: [SchemaGuide]) {
        self.property = property
        self.description = description
        self.guides = guides
    }
}

/// An enum derived as the list of its raw values (a string enum for `String` raw values, a JSON `enum`
/// of integers for `Int`). Conform any `CaseIterable & RawRepresentable` Decodable enum; nothing to implement.
public protocol SchemaEnumeration: CaseIterable, RawRepresentable, Decodable where RawValue: Decodable {}

extension SchemaEnumeration {
    /// The first case, as a placeholder while deriving an enclosing type.
    static var derivationPlaceholder: Any? { allCases.first }

    /// The raw values as JSON, or nil when the raw type is neither String nor an integer.
    static var derivationRawValues: [JSONValue]? {
        var values: [JSONValue] = []
        for c in allCases {
            switch c.rawValue {
            case let s as String: values.append(.string(s))
            case let i as Int: values.append(.number(JSONNumber(i)))
            default: return nil
            }
        }
        return values
    }
}
