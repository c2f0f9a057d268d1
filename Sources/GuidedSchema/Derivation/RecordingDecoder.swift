/// What one value's `init(from:)` asked for, filled in by the recording containers.
///
/// A class so the containers handed out (value types the `Decoder` API requires) all write to the same
/// record; owned by one `DerivationContext` for one synchronous derivation.
final class RecordingBox {
    enum Shape {
        case nothing
        case keyed([RecordedProperty])
        case unkeyed(items: [RecordedValue])
        case single(RecordedValue?, nullable: Bool)
    }

    /// A recorded schema, or a nested box still being filled (nested containers and super decoders).
    enum RecordedValue {
        case schema(OutputSchema)
        case nested(RecordingBox)
    }

    struct RecordedProperty {
        var name: String
        var value: RecordedValue
        var isRequired: Bool
        var isNullable: Bool
    }

    let context: DerivationContext
    let path: [String]
    var shape: Shape = .nothing
    var conflict: String?
    /// Keys probed with `contains` or `decodeNil` before being decoded.
    var probed: Set<String> = []
    var nilProbed: Set<String> = []

    init(context: DerivationContext, path: [String]) {
        self.context = context
        self.path = path
    }

    var isKeyedWithoutProperties: Bool { if case .keyed(let ps) = shape { return ps.isEmpty } else { return false } }
    var isSingleValue: Bool { if case .single = shape { return true } else { return false } }

    /// Switches to `wanted` unless another container kind was already requested.
    func begin(_ kind: String, _ wanted: Shape) {
        switch (shape, wanted) {
        case (.nothing, _): shape = wanted
        case (.keyed, .keyed), (.unkeyed, .unkeyed), (.single, .single): break
        default: conflict = conflict ?? kind
        }
    }

    func record(_ key: String, _ value: RecordedValue, required: Bool) {
        guard case .keyed(var ps) = shape else { return }
        guard !ps.contains(where: { $0.name == key }) else { return }
        let optional = !required || probed.contains(key)
        ps.append(RecordedProperty(name: key, value: value, isRequired: !optional, isNullable: nilProbed.contains(key)))
        shape = .keyed(ps)
    }

    /// Derives `type` for the value at `key` (or element), with the path used in errors.
    func derive(_ type: any Decodable.Type, at key: String) throws(SchemaError) -> (schema: OutputSchema, value: Any?) {
        try context.derive(type, path: path + [key])
    }

    func placeholder<T>(_ value: Any?, as type: T.Type, at key: String) throws -> T {
        guard let v = value as? T else {
            throw SchemaError.cannotDerive(
                type: "\(T.self)", reason: "at \(DerivationContext.describe(path + [key])): no placeholder value can be made, because the type contains itself through required properties (such a value never ends) or, having a declaredSchema, its init(from:) rejects placeholder input",
                remedy: "Make the recursive property optional or an array; or declare the enclosing type's schema by hand (GuidedGenerable.declaredSchema).")
        }
        return v
    }

    /// The recorded shape as a schema for `type`.
    func schema(for type: Any.Type) throws(SchemaError) -> OutputSchema {
        let at = DerivationContext.describe(path)
        if let conflict {
            throw .cannotDerive(
                type: "\(type)", reason: "at \(at): its init(from:) asks for two kinds of container (then \(conflict))",
                remedy: "Declare the schema by hand (GuidedGenerable.declaredSchema).")
        }
        switch shape {
        case .nothing:
            throw .cannotDerive(
                type: "\(type)", reason: "at \(at): its init(from:) reads nothing from the decoder",
                remedy: "Declare the schema by hand (GuidedGenerable.declaredSchema).")
        case .keyed(let ps):
            var properties: [SchemaProperty] = []
            for p in ps {
                var s = try RecordingBox.resolve(p.value, type)
                if p.isNullable { s = .nullable(s) }
                properties.append(SchemaProperty(name: p.name, schema: s, isRequired: p.isRequired))
            }
            return OutputSchema(.object(ObjectSchema(properties: properties)))
        case .unkeyed(let items):
            guard let first = items.first else {
                throw .cannotDerive(
                    type: "\(type)", reason: "at \(at): its init(from:) opens an array but decodes no element",
                    remedy: "Declare the schema by hand (GuidedGenerable.declaredSchema).")
            }
            guard items.count == 1 else {
                throw .cannotDerive(
                    type: "\(type)", reason: "at \(at): it decodes a fixed sequence of \(items.count) elements (a tuple); OutputSchema arrays have one item schema",
                    remedy: "Decode a keyed object instead, or declare the schema by hand (GuidedGenerable.declaredSchema).")
            }
            return .array(of: try RecordingBox.resolve(first, type))
        case .single(let value, let nullable):
            guard let value else {
                throw .cannotDerive(
                    type: "\(type)", reason: "at \(at): its single-value container decodes nothing",
                    remedy: "Declare the schema by hand (GuidedGenerable.declaredSchema).")
            }
            let s = try RecordingBox.resolve(value, type)
            return nullable ? .nullable(s) : s
        }
    }

    static func resolve(_ v: RecordedValue, _ type: Any.Type) throws(SchemaError) -> OutputSchema {
        switch v {
        case .schema(let s): return s
        case .nested(let box): return try box.schema(for: type)
        }
    }
}

/// The `Decoder` that records instead of reading: every container it hands out records what is asked and
/// answers with placeholder values.
struct RecordingDecoder: Decoder {
    let box: RecordingBox
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        box.begin("a keyed container", .keyed([]))
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        box.begin("an unkeyed container", .unkeyed(items: []))
        return RecordingUnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        box.begin("a single-value container", .single(nil, nullable: false))
        return RecordingSingleValueContainer(box: box, codingPath: codingPath)
    }
}

/// A key made from a string, for coding paths.
struct RecordingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
