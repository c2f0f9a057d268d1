/// One reason a schema is outside OpenAI's strict structured-output subset, with the JSON Pointer of the
/// subschema where it was found.
public struct StrictSchemaViolation: Sendable, Equatable, CustomStringConvertible {
    public var pointer: String
    public var reason: String

    public init(pointer: String, reason: String) {
        self.pointer = pointer
        self.reason = reason
    }

    public var description: String { "\(pointer.isEmpty ? "#" : "#" + pointer): \(reason)" }
}
