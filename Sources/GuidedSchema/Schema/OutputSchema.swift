/// The shape of a structured output, as a Swift developer declares it: typed, ordered, with descriptions
/// and guides, and nothing a grammar compiler could not be asked to enforce.
///
/// An `OutputSchema` is a tree of nodes. Each node has a `kind` (what JSON value it admits) and annotations
/// (`title`, `description`, `defaultValue`) that never change what is admitted. Named `definitions` live on
/// the root and are reached with `.reference`, which is how recursive types are written.
///
/// Three ways to get one: derive it from a `Decodable` type (`GuidedGenerable`), build it
/// (`OutputSchema.object(...) { SchemaProperty(...) }`), or import JSON Schema (`OutputSchema(jsonSchema:)`).
/// Export with `jsonSchema(for:)` in a dialect (standard, FoundationModels, OpenAI strict, Gemini, vLLM,
/// llama.cpp).
///
/// The name deliberately differs from FoundationModels' `GenerationSchema`, so a Darwin target can import
/// both modules without ambiguity.
public struct OutputSchema: Sendable, Hashable {
    /// What the node admits.
    public var kind: Kind
    /// A short name (FoundationModels puts the type name here).
    public var title: String?
    /// Free text shown to the model; never a constraint.
    public var description: String?
    /// JSON Schema's `default` annotation.
    public var defaultValue: JSONValue?
    /// Named subschemas, referenced with `.reference(.definition(name))`. Meaningful on the root; export
    /// hoists definitions found deeper to the root's `$defs`.
    public var definitions: [SchemaDefinition]

    public init(
        _ kind: Kind, title: String? = nil, description: String? = nil, defaultValue: JSONValue? = nil,
        definitions: [SchemaDefinition] = []
    ) {
        self.kind = kind
        self.title = title
        self.description = description
        self.defaultValue = defaultValue
        self.definitions = definitions
    }

    /// The kinds of value a node can admit; each maps to one JSON Schema shape.
    public indirect enum Kind: Sendable, Hashable {
        /// Any JSON value (`true` or `{}`).
        case any
        case null
        case boolean
        case string(StringSchema)
        case integer(NumberSchema)
        case number(NumberSchema)
        case array(ArraySchema)
        case object(ObjectSchema)
        /// Exactly one JSON value, of any type (`const`).
        case constant(JSONValue)
        /// One of these JSON values, of any types (`enum` without `type`).
        case enumeration([JSONValue])
        /// Any of these alternatives (`anyOf`).
        case anyOf([OutputSchema])
        /// The root or a named definition (`$ref`).
        case reference(SchemaReference)
    }
}

/// A named subschema (`$defs/<name>`).
public struct SchemaDefinition: Sendable, Hashable {
    public var name: String
    public var schema: OutputSchema

    public init(_ name: String, _ schema: OutputSchema) {
        self.name = name
        self.schema = schema
    }
}

/// Where a `$ref` points: the whole schema (`#`, for a recursive root) or a root definition.
public enum SchemaReference: Sendable, Hashable {
    case root
    case definition(String)

    /// The JSON Pointer fragment written in `$ref`.
    public var pointer: String {
        switch self {
        case .root: return "#"
        case .definition(let name): return "#/$defs/" + JSONPointer.escape(name)
        }
    }
}

extension OutputSchema {
    /// The JSON Schema `type` name of this node, or a description of it for nodes without one; used in errors.
    public var kindName: String {
        switch kind {
        case .any: return "any"
        case .null: return "null"
        case .boolean: return "boolean"
        case .string: return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .array: return "array"
        case .object(let o): return o.properties.isEmpty && o.additionalProperties.schema != nil ? "dictionary" : "object"
        case .constant: return "constant"
        case .enumeration: return "enumeration"
        case .anyOf: return "anyOf"
        case .reference(let r): return "reference \(r.pointer)"
        }
    }

    /// Looks up a root definition by name.
    public func definition(named name: String) -> OutputSchema? {
        definitions.first { $0.name == name }?.schema
    }
}
