/// Keyed container: each `decode` records a property (required), `decodeIfPresent` an optional one, in
/// call order; values are placeholders. `allKeys` is empty: nothing is really there.
struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let box: RecordingBox
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool {
        box.probed.insert(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        box.nilProbed.insert(key.stringValue)
        return false
    }

    func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let (schema, value) = try box.derive(T.self, at: key.stringValue)
        box.record(key.stringValue, .schema(schema), required: true)
        return try box.placeholder(value, as: T.self, at: key.stringValue)
    }

    func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let (schema, _) = try box.derive(T.self, at: key.stringValue)
        box.record(key.stringValue, .schema(schema), required: false)
        return nil
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    func nestedBox(_ key: Key) -> RecordingBox {
        let nested = RecordingBox(context: box.context, path: box.path + [key.stringValue])
        box.record(key.stringValue, .nested(nested), required: true)
        return nested
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try RecordingDecoder(box: nestedBox(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try RecordingDecoder(box: nestedBox(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = RecordingKey("super")
        let nested = RecordingBox(context: box.context, path: box.path + ["super"])
        box.record("super", .nested(nested), required: true)
        return RecordingDecoder(box: nested, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        RecordingDecoder(box: nestedBox(key), codingPath: codingPath + [key])
    }
}

/// Unkeyed container: records the element type; reports its end after one element so the usual
/// `while !isAtEnd` loops stop.
struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let box: RecordingBox
    let codingPath: [any CodingKey]
    var count: Int? { nil }
    var currentIndex: Int {
        if case .unkeyed(let items) = box.shape { return items.count }
        return 0
    }
    var isAtEnd: Bool { currentIndex > 0 }

    func append(_ v: RecordingBox.RecordedValue) {
        if case .unkeyed(var items) = box.shape {
            items.append(v)
            box.shape = .unkeyed(items: items)
        }
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = try box.derive(T.self, at: "[]")
        append(.schema(schema))
        return try box.placeholder(value, as: T.self, at: "[]")
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

    mutating func nestedBox() -> RecordingBox {
        let nested = RecordingBox(context: box.context, path: box.path + ["[]"])
        append(.nested(nested))
        return nested
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try RecordingDecoder(box: nestedBox(), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try RecordingDecoder(box: nestedBox(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { RecordingDecoder(box: nestedBox(), codingPath: codingPath) }
}

/// Single-value container: records the first type decoded; `decodeNil` makes the value nullable.
struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let box: RecordingBox
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .single(let v, _) = box.shape { box.shape = .single(v, nullable: true) }
        return false
    }

    func value<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = try box.derive(T.self, at: "value")
        if case .single(nil, let nullable) = box.shape { box.shape = .single(.schema(schema), nullable: nullable) }
        return try box.placeholder(value, as: T.self, at: "value")
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
}
