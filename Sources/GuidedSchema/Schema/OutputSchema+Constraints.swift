/// Constraints on a string node. Every field is one JSON Schema keyword.
public struct StringSchema: Sendable, Hashable {
    /// `enum`: the string must be one of these (FoundationModels' `.anyOf` guide on a String).
    public var allowedValues: [String]?
    /// `const`.
    public var constant: String?
    /// `minLength`, in Unicode scalars as JSON Schema counts.
    public var minLength: Int?
    /// `maxLength`.
    public var maxLength: Int?
    /// `pattern`: an ECMA-262 regular expression, unanchored as JSON Schema specifies.
    public var pattern: String?
    /// `format`.
    public var format: StringFormat?

    public init(
        allowedValues: [String]? = nil, constant: String? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, format: StringFormat? = nil
    ) {
        self.allowedValues = allowedValues
        self.constant = constant
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.format = format
    }
}

/// The `format` values JSON Schema 2020-12 defines. Anything else is refused on import: an unknown format
/// could not be enforced, and ignoring it would loosen the schema.
public struct StringFormat: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts only the formats listed in `known`.
    public init?(rawValue: String) {
        guard StringFormat.knownNames.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    public var description: String { rawValue }

    public static let dateTime = StringFormat(known: "date-time")
    public static let date = StringFormat(known: "date")
    public static let time = StringFormat(known: "time")
    public static let duration = StringFormat(known: "duration")
    public static let email = StringFormat(known: "email")
    public static let idnEmail = StringFormat(known: "idn-email")
    public static let hostname = StringFormat(known: "hostname")
    public static let idnHostname = StringFormat(known: "idn-hostname")
    public static let ipv4 = StringFormat(known: "ipv4")
    public static let ipv6 = StringFormat(known: "ipv6")
    public static let uri = StringFormat(known: "uri")
    public static let uriReference = StringFormat(known: "uri-reference")
    public static let iri = StringFormat(known: "iri")
    public static let iriReference = StringFormat(known: "iri-reference")
    public static let uriTemplate = StringFormat(known: "uri-template")
    public static let uuid = StringFormat(known: "uuid")
    public static let jsonPointer = StringFormat(known: "json-pointer")
    public static let relativeJSONPointer = StringFormat(known: "relative-json-pointer")
    public static let regex = StringFormat(known: "regex")

    static let knownNames: Set<String> = [
        "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
        "uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid", "json-pointer",
        "relative-json-pointer", "regex",
    ]
}

/// Bounds on an integer or number node, kept as exact JSON numbers.
public struct NumberSchema: Sendable, Hashable {
    /// `minimum`.
    public var minimum: JSONNumber?
    /// `maximum`.
    public var maximum: JSONNumber?
    /// `exclusiveMinimum` (2020-12 number form; draft 4's boolean form is converted on import).
    public var exclusiveMinimum: JSONNumber?
    /// `exclusiveMaximum`.
    public var exclusiveMaximum: JSONNumber?
    /// `multipleOf` (strictly positive).
    public var multipleOf: JSONNumber?

    public init(
        minimum: JSONNumber? = nil, maximum: JSONNumber? = nil, exclusiveMinimum: JSONNumber? = nil,
        exclusiveMaximum: JSONNumber? = nil, multipleOf: JSONNumber? = nil
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
        self.multipleOf = multipleOf
    }
}

/// An array whose elements all follow one schema.
public struct ArraySchema: Sendable, Hashable {
    /// `items`.
    public var items: OutputSchema
    /// `minItems`.
    public var minItems: Int?
    /// `maxItems`.
    public var maxItems: Int?

    public init(items: OutputSchema, minItems: Int? = nil, maxItems: Int? = nil) {
        self.items = items
        self.minItems = minItems
        self.maxItems = maxItems
    }
}

/// An object with properties in declaration order.
///
/// Order is part of the schema: the standard export writes `properties` in this order, FoundationModels'
/// adds `x-order`, Gemini's `propertyOrdering`, and a grammar compiler can emit keys in it.
public struct ObjectSchema: Sendable, Hashable {
    public var properties: [SchemaProperty]
    /// What keys other than `properties` may appear.
    public var additionalProperties: AdditionalProperties

    /// Objects the user declares (builder, derivation) forbid other keys; imported ones keep what was written.
    public init(properties: [SchemaProperty], additionalProperties: AdditionalProperties = .forbidden) {
        self.properties = properties
        self.additionalProperties = additionalProperties
    }

    public func property(named name: String) -> SchemaProperty? { properties.first { $0.name == name } }
}

/// One object member: its key, schema and whether it must be present.
public struct SchemaProperty: Sendable, Hashable {
    public var name: String
    public var schema: OutputSchema
    /// False for properties that may be absent (Swift optionals, JSON Schema keys not in `required`).
    public var isRequired: Bool
    /// Guides not yet applied (set by the builder's initializer, applied and cleared by `OutputSchema.object`).
    var pendingGuides: [SchemaGuide] = []

    public init(name: String, schema: OutputSchema, isRequired: Bool = true) {
        self.name = name
        self.schema = schema
        self.isRequired = isRequired
    }

    public static func == (a: SchemaProperty, b: SchemaProperty) -> Bool {
        a.name == b.name && a.schema == b.schema && a.isRequired == b.isRequired && a.pendingGuides == b.pendingGuides
    }

    public func hash(into h: inout Hasher) {
        h.combine(name)
        h.combine(schema)
        h.combine(isRequired)
    }
}

/// JSON Schema's `additionalProperties` in the three forms the schema type keeps.
public enum AdditionalProperties: Sendable, Hashable {
    /// `false`: only declared properties.
    case forbidden
    /// Absent or `true`: any other key with any value.
    case allowed
    /// A schema every other member's value must follow (a Swift `[String: T]`).
    case schema(OutputSchema)

    var schema: OutputSchema? { if case .schema(let s) = self { return s } else { return nil } }
}
