/// One way an instance fails a schema: where in the instance, which keyword (its location in the schema,
/// through any `$ref`s followed), and what is wrong in words.
public struct JSONSchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON Pointer into the instance (`""` is the whole instance).
    public let instancePath: String
    /// JSON Pointer to the failing keyword from the root schema, `$ref`s included as path steps
    /// (the "keyword location" of the JSON Schema output formats).
    public let schemaPath: String
    /// A sentence saying what is wrong, naming the expected and found values.
    public let message: String

    public init(instancePath: String, schemaPath: String, message: String) {
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.message = message
    }

    public var description: String {
        "at \(instancePath.isEmpty ? "the root" : instancePath): \(message) (schema \(schemaPath.isEmpty ? "/" : schemaPath))"
    }
}

/// What subschemas that passed have looked at, so `unevaluatedProperties` / `unevaluatedItems` know what
/// is left. A failed subschema contributes nothing.
struct EvaluatedLocations {
    var properties: Set<String> = []
    var allItems = false
    var itemPrefix = 0
    var items: Set<Int> = []

    mutating func merge(_ other: EvaluatedLocations) {
        properties.formUnion(other.properties)
        allItems = allItems || other.allItems
        itemPrefix = max(itemPrefix, other.itemPrefix)
        items.formUnion(other.items)
    }

    func isItemEvaluated(_ i: Int) -> Bool { allItems || i < itemPrefix || items.contains(i) }
}
