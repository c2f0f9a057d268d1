/// Declaring schemas in Swift code: leaf constructors, combinators and a result builder for object
/// properties.
///
/// ```swift
/// let person = try OutputSchema.object(title: "Person") {
///     SchemaProperty("name", .string, description: "Full name", guides: .minLength(1))
///     SchemaProperty("age", .integer, guides: .range(0...150))
///     SchemaProperty("nickname", .string, isOptional: true)
/// }
/// ```
extension OutputSchema {
    public static var any: OutputSchema { OutputSchema(.any) }
    public static var null: OutputSchema { OutputSchema(.null) }
    public static var boolean: OutputSchema { OutputSchema(.boolean) }
    public static var string: OutputSchema { OutputSchema(.string(StringSchema())) }
    public static var integer: OutputSchema { OutputSchema(.integer(NumberSchema())) }
    public static var number: OutputSchema { OutputSchema(.number(NumberSchema())) }

    /// A string that is one of `values` (a string enum).
    public static func stringEnum(_ values: [String]) -> OutputSchema {
        OutputSchema(.string(StringSchema(allowedValues: values)))
    }

    /// An array of `items`.
    public static func array(of items: OutputSchema) -> OutputSchema { OutputSchema(.array(ArraySchema(items: items))) }

    /// An object with any String keys whose values follow `values` (a Swift `[String: V]`).
    public static func dictionary(of values: OutputSchema) -> OutputSchema {
        OutputSchema(.object(ObjectSchema(properties: [], additionalProperties: .schema(values))))
    }

    /// Any of the alternatives (`anyOf`).
    public static func anyOf(_ alternatives: [OutputSchema]) -> OutputSchema { OutputSchema(.anyOf(alternatives)) }

    /// The value or `null`.
    public static func nullable(_ schema: OutputSchema) -> OutputSchema { anyOf([schema, .null]) }

    /// A JSON value equal to `value` (`const`, any type).
    public static func constant(_ value: JSONValue) -> OutputSchema { OutputSchema(.constant(value)) }

    /// A reference to the root definition `name`; add it with `defining(_:_:)` on the root.
    public static func reference(_ name: String) -> OutputSchema { OutputSchema(.reference(.definition(name))) }

    /// A reference to the whole schema (`"$ref": "#"`), for a recursive root.
    public static var recursiveRoot: OutputSchema { OutputSchema(.reference(.root)) }

    /// An object with the built properties, in the order written; other keys are forbidden
    /// (`additionalProperties: false`). Each property's guides are applied here.
    ///
    /// - Throws: `SchemaError.duplicateProperty`, or a guide error naming the property's path.
    public static func object(
        title: String? = nil, description: String? = nil,
        @SchemaPropertiesBuilder _ properties: () -> [SchemaProperty]
    ) throws(SchemaError) -> OutputSchema {
        try object(title: title, description: description, properties: properties())
    }

    /// Array form of the builder's `object`.
    public static func object(
        title: String? = nil, description: String? = nil, properties: [SchemaProperty]
    ) throws(SchemaError) -> OutputSchema {
        var done: [SchemaProperty] = []
        for var p in properties {
            let path = JSONPointer.appending("/properties", p.name)
            guard !done.contains(where: { $0.name == p.name }) else {
                throw .duplicateProperty(name: p.name, path: path)
            }
            p.schema = try p.schema.applying(p.pendingGuides, at: path)
            p.pendingGuides = []
            done.append(p)
        }
        return OutputSchema(.object(ObjectSchema(properties: done)), title: title, description: description)
    }

    /// This schema with a description.
    public func describing(_ text: String) -> OutputSchema {
        var copy = self
        copy.description = text
        return copy
    }

    /// This schema with a title.
    public func titled(_ text: String) -> OutputSchema {
        var copy = self
        copy.title = text
        return copy
    }

    /// This schema with a root definition added (reach it with `.reference(name)`).
    public func defining(_ name: String, _ schema: OutputSchema) -> OutputSchema {
        var copy = self
        copy.definitions.append(SchemaDefinition(name, schema))
        return copy
    }
}

extension SchemaProperty {
    /// A property for the builder. `guides` are applied when the enclosing `OutputSchema.object` is built.
    public init(
        _ name: String, _ schema: OutputSchema, description: String? = nil, isOptional: Bool = false,
        guides: SchemaGuide...
    ) {
        var s = schema
        if let description { s.description = description }
        self.init(name: name, schema: s, isRequired: !isOptional)
        pendingGuides = guides
    }
}

/// Collects `SchemaProperty` values, with `if`, `if/else` and `for` allowed.
@resultBuilder
public enum SchemaPropertiesBuilder {
    public static func buildExpression(_ p: SchemaProperty) -> [SchemaProperty] { [p] }
    public static func buildExpression(_ ps: [SchemaProperty]) -> [SchemaProperty] { ps }
    public static func buildBlock(_ parts: [SchemaProperty]...) -> [SchemaProperty] { parts.flatMap { $0 } }
    public static func buildOptional(_ p: [SchemaProperty]?) -> [SchemaProperty] { p ?? [] }
    public static func buildEither(first p: [SchemaProperty]) -> [SchemaProperty] { p }
    public static func buildEither(second p: [SchemaProperty]) -> [SchemaProperty] { p }
    public static func buildArray(_ ps: [[SchemaProperty]]) -> [SchemaProperty] { ps.flatMap { $0 } }
}
