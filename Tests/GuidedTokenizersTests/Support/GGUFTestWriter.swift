import Foundation

/// Writes GGUF files for the tests (little-endian, ggml's docs/gguf.md layout): metadata of any value type,
/// optional tensor infos without data, and raw values with any type code for malformed files. Only what
/// the loader reads is written; there is no tensor data.
struct GGUFTestWriter {
    enum Value {
        case uint32(UInt32)
        case int32(Int32)
        case uint64(UInt64)
        case float32(Float)
        case bool(Bool)
        case string(String)
        case strings([[UInt8]])
        case int32s([Int32])
        case float32s([Float])
        /// Any type code followed by any payload bytes (for malformed files).
        case raw(type: UInt32, payload: [UInt8])
    }

    struct TensorInfo {
        var name: String
        var dimensions: [UInt64]
        var type: UInt32 = 0
        var offset: UInt64 = 0
    }

    var version: UInt32 = 3
    var metadata: [(key: String, value: Value)] = []
    var tensors: [TensorInfo] = []

    mutating func set(_ key: String, _ value: Value) {
        if let i = metadata.firstIndex(where: { $0.key == key }) { metadata[i].value = value } else { metadata.append((key, value)) }
    }

    mutating func remove(_ key: String) { metadata.removeAll { $0.key == key } }

    func bytes() -> [UInt8] {
        var out: [UInt8] = Array("GGUF".utf8)
        Self.put(version, &out)
        Self.put(UInt64(tensors.count), &out)
        Self.put(UInt64(metadata.count), &out)
        for (key, value) in metadata {
            Self.putString(Array(key.utf8), &out)
            Self.putValue(value, &out)
        }
        for t in tensors {
            Self.putString(Array(t.name.utf8), &out)
            Self.put(UInt32(t.dimensions.count), &out)
            for d in t.dimensions { Self.put(d, &out) }
            Self.put(t.type, &out)
            Self.put(t.offset, &out)
        }
        return out
    }

    /// Byte offset where the value (its type field) of `key` starts in `bytes()`.
    func valueOffset(_ key: String) -> Int {
        var probe = self
        let index = metadata.firstIndex { $0.key == key }!
        probe.metadata = Array(metadata[..<index])
        probe.tensors = []
        return probe.bytes().count + 8 + key.utf8.count
    }

    static func put<T: FixedWidthInteger>(_ v: T, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    static func putString(_ s: [UInt8], _ out: inout [UInt8]) {
        put(UInt64(s.count), &out)
        out.append(contentsOf: s)
    }

    static func putValue(_ value: Value, _ out: inout [UInt8]) {
        switch value {
        case .uint32(let v): put(UInt32(4), &out); put(v, &out)
        case .int32(let v): put(UInt32(5), &out); put(v, &out)
        case .uint64(let v): put(UInt32(10), &out); put(v, &out)
        case .float32(let v): put(UInt32(6), &out); put(v.bitPattern, &out)
        case .bool(let v): put(UInt32(7), &out); out.append(v ? 1 : 0)
        case .string(let s): put(UInt32(8), &out); putString(Array(s.utf8), &out)
        case .strings(let list):
            put(UInt32(9), &out); put(UInt32(8), &out); put(UInt64(list.count), &out)
            for s in list { putString(s, &out) }
        case .int32s(let list):
            put(UInt32(9), &out); put(UInt32(5), &out); put(UInt64(list.count), &out)
            for v in list { put(v, &out) }
        case .float32s(let list):
            put(UInt32(9), &out); put(UInt32(6), &out); put(UInt64(list.count), &out)
            for v in list { put(v.bitPattern, &out) }
        case .raw(let type, let payload): put(type, &out); out.append(contentsOf: payload)
        }
    }

    /// Little-endian bytes of an integer, for raw payloads.
    static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
        var out: [UInt8] = []
        put(v, &out)
        return out
    }
}
