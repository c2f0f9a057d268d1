/// `JSONValue` as a `Codable` member of user types. Through `JSONValueDecoder` the value is taken as is
/// (key order and number literals kept); through other decoders it is rebuilt from their containers
/// (object key order then follows that decoder's `allKeys`).
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let direct = decoder as? JSONValueDecoding {
            self = direct.value
            return
        }
        if let container = try? decoder.container(keyedBy: JSONValueIndexKey.self) {
            var object = JSONObject()
            for key in container.allKeys { object[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !container.isAtEnd { items.append(try container.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? single.decode(Int.self) {
            self = .number(JSONNumber(i))
        } else if let d = try? single.decode(Double.self) {
            self = .number(JSONNumber(d))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let i = n.intValue { try c.encode(i) } else { try c.encode(n.doubleValue) }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let object):
            var c = encoder.container(keyedBy: JSONValueIndexKey.self)
            for (key, value) in object { try c.encode(value, forKey: JSONValueIndexKey(stringValue: key)) }
        }
    }
}
