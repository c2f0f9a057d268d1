/// The value types of GGUF metadata, by their code in the file (ggml's docs/gguf.md, `gguf_metadata_value_type`).
enum GGUFValueType: UInt32, Sendable {
    case uint8 = 0, int8 = 1, uint16 = 2, int16 = 3, uint32 = 4, int32 = 5, float32 = 6, bool = 7, string = 8,
         array = 9, uint64 = 10, int64 = 11, float64 = 12

    /// Bytes of one value of a fixed-size type; nil for strings and arrays.
    var fixedSize: Int? {
        switch self {
        case .uint8, .int8, .bool: return 1
        case .uint16, .int16: return 2
        case .uint32, .int32, .float32: return 4
        case .uint64, .int64, .float64: return 8
        case .string, .array: return nil
        }
    }

    /// The fewest bytes one value can take: a string is at least its 8-byte length, an array its 4-byte
    /// element type and 8-byte count. Used to cap element counts against the bytes that remain.
    var minimumSize: Int { fixedSize ?? (self == .string ? 8 : 12) }

    var name: String {
        switch self {
        case .uint8: return "uint8"
        case .int8: return "int8"
        case .uint16: return "uint16"
        case .int16: return "int16"
        case .uint32: return "uint32"
        case .int32: return "int32"
        case .float32: return "float32"
        case .bool: return "bool"
        case .string: return "string"
        case .array: return "array"
        case .uint64: return "uint64"
        case .int64: return "int64"
        case .float64: return "float64"
        }
    }
}

/// One metadata value. Strings stay ranges into the file's bytes (the file stays mapped while the
/// vocabulary is built), arrays of numbers stay a start offset: 150k tokens and 300k merges are read once,
/// by the vocabulary loader, not copied into values first.
enum GGUFValue: Sendable {
    case unsigned(UInt64)
    case signed(Int64)
    case float(Double)
    case bool(Bool)
    case string(Range<Int>)
    case array(GGUFArray)
}

/// An array value: its element type and count, where its first element starts, and for arrays of strings
/// the range of every element.
struct GGUFArray: Sendable {
    let elementType: GGUFValueType
    let count: Int
    let start: Int
    /// Element ranges, for arrays of strings only (empty otherwise).
    let strings: [Range<Int>]
}

/// A metadata entry: its type (with the offset of the type field, for error messages) and value.
struct GGUFMetadata: Sendable {
    let type: GGUFValueType
    let typeOffset: Int
    let value: GGUFValue

    /// "string", "uint32", "array of int32": how errors name the type.
    var typeName: String {
        if case .array(let a) = value { return "array of \(a.elementType.name)" }
        return type.name
    }
}
