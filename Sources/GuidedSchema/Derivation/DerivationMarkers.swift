import Foundation

// Standard containers recognised by type before decoding, so their element types are derived even
// though a placeholder value (empty, nil) never decodes an element.

protocol DerivableArray {
    static var elementType: any Decodable.Type { get }
    static var emptyPlaceholder: Any { get }
}

extension Array: DerivableArray where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var emptyPlaceholder: Any { [Element]() }
}

protocol DerivableDictionary {
    static var keyType: Any.Type { get }
    static var valueType: any Decodable.Type { get }
    static var emptyPlaceholder: Any { get }
}

extension Dictionary: DerivableDictionary where Key: Decodable, Value: Decodable {
    static var keyType: Any.Type { Key.self }
    static var valueType: any Decodable.Type { Value.self }
    static var emptyPlaceholder: Any { [Key: Value]() }
}

protocol DerivableOptional {
    static var wrappedType: any Decodable.Type { get }
    static var nonePlaceholder: Any { get }
}

extension Optional: DerivableOptional where Wrapped: Decodable {
    static var wrappedType: any Decodable.Type { Wrapped.self }
    static var nonePlaceholder: Any { Wrapped?.none as Any }
}

/// Leaf types with a fixed schema and placeholder value.
enum DerivationLeaf {
    static func leaf(for type: Any.Type) -> (OutputSchema, Any)? {
        func int<T: FixedWidthInteger>(_ t: T.Type) -> (OutputSchema, Any) {
            // Bounds for the narrow and unsigned types: JSONDecoder rejects values outside them.
            var n = NumberSchema()
            if T.bitWidth < 64 || !T.isSigned {
                n.minimum = JSONNumber(literal: String(T.min))
                if T.bitWidth < 64 { n.maximum = JSONNumber(literal: String(T.max)) }
            }
            return (OutputSchema(.integer(n)), T.zero)
        }
        switch type {
        case is String.Type: return (.string, "")
        case is Bool.Type: return (.boolean, false)
        case is Double.Type: return (.number, Double(0))
        case is Float.Type: return (.number, Float(0))
        case is Int.Type: return int(Int.self)
        case is Int8.Type: return int(Int8.self)
        case is Int16.Type: return int(Int16.self)
        case is Int32.Type: return int(Int32.self)
        case is Int64.Type: return int(Int64.self)
        case is UInt.Type: return int(UInt.self)
        case is UInt8.Type: return int(UInt8.self)
        case is UInt16.Type: return int(UInt16.self)
        case is UInt32.Type: return int(UInt32.self)
        case is UInt64.Type: return int(UInt64.self)
        case is Decimal.Type: return (.number, Decimal(0))
        // Dates as RFC 3339 text: decode with `JSONValueDecoder` or `JSONDecoder.dateDecodingStrategy = .rfc3339`.
        case is Date.Type: return (OutputSchema(.string(StringSchema(format: .dateTime))), Date(timeIntervalSince1970: 0))
        case is URL.Type: return (OutputSchema(.string(StringSchema(format: .uri))), URL(fileURLWithPath: "/"))
        case is UUID.Type: return (OutputSchema(.string(StringSchema(format: .uuid))), UUID())
        default: return nil
        }
    }
}
