/// The header, metadata and tensor infos of a GGUF file (ggml's docs/gguf.md), versions 2 and 3:
///
/// ```
/// "GGUF" | version u32 | tensor count u64 | metadata count u64 | metadata KV... | tensor infos... | (align) data
/// KV:          key string | value type u32 | value
/// string:      length u64 | bytes
/// array:       element type u32 | count u64 | elements
/// tensor info: name string | n_dims u32 | dims u64 × n_dims | ggml type u32 | data offset u64
/// ```
///
/// Only this prefix is read: tensor infos are walked so that a file cut short there is an error, but the
/// tensor data (gigabytes for a model) is never touched, so a memory-mapped file costs only the pages of
/// its metadata.
struct GGUFFile {
    /// ggml's `GGML_MAX_DIMS`.
    static let maxTensorDimensions: UInt32 = 4
    /// Arrays of arrays are legal; deeper nesting than this is refused rather than recursed into.
    static let maxArrayDepth = 4

    var version: UInt32 = 0
    var tensorCount = 0
    var metadata: [String: GGUFMetadata] = [:]

    /// Why parsing failed: wrong magic and unsupported versions apart, so that the caller can name them.
    enum Failure: Error, Equatable {
        case magic
        case version(UInt32)
        case malformed(GGUFReader.Failure)
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> GGUFFile {
        var r = GGUFReader(bytes)
        var file = GGUFFile()
        guard try located({ () throws(GGUFReader.Failure) in try r.little(4, "the magic") }) == 0x4655_4747 else {
            throw .magic // "GGUF" read as a little-endian u32
        }
        file.version = try located { () throws(GGUFReader.Failure) in try r.u32("the version") }
        guard file.version == 2 || file.version == 3 else { throw .version(file.version) }
        try located { () throws(GGUFReader.Failure) in try file.readBody(&r) }
        return file
    }

    private static func located<T>(_ body: () throws(GGUFReader.Failure) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw .malformed(error) }
    }

    /// Everything after the version: counts, metadata, tensor infos.
    private mutating func readBody(_ r: inout GGUFReader) throws(GGUFReader.Failure) {
        // A tensor info takes at least 8 (name length) + 4 + 4 + 8 bytes; a KV at least 8 + 4 + 1.
        tensorCount = try r.count("the tensor count", minimumSize: 24)
        let kvCount = try r.count("the metadata count", minimumSize: 13)
        for _ in 0..<kvCount {
            let keyAt = r.position
            let keyRange = try r.string("a metadata key")
            guard let key = String(validating: r.bytes[keyRange], as: UTF8.self) else {
                throw r.fail("metadata key is not valid UTF-8", at: keyAt)
            }
            guard metadata[key] == nil else { throw r.fail("duplicate metadata key \(key)", at: keyAt) }
            let typeAt = r.position
            let type = try Self.valueType(&r, "the value type of \(key)")
            let value = try Self.readValue(&r, type, key: key, depth: 0)
            metadata[key] = GGUFMetadata(type: type, typeOffset: typeAt, value: value)
        }
        for t in 0..<tensorCount {
            _ = try r.string("the name of tensor \(t)")
            let dimsAt = r.position
            let dims = try r.u32("the dimension count of tensor \(t)")
            guard dims <= Self.maxTensorDimensions else {
                throw r.fail("tensor \(t) has \(dims) dimensions (at most \(Self.maxTensorDimensions))", at: dimsAt)
            }
            for d in 0..<Int(dims) { _ = try r.u64("dimension \(d) of tensor \(t)") }
            _ = try r.u32("the type of tensor \(t)")
            _ = try r.u64("the data offset of tensor \(t)")
        }
    }

    private static func valueType(_ r: inout GGUFReader, _ what: String) throws(GGUFReader.Failure) -> GGUFValueType {
        let at = r.position
        let code = try r.u32(what)
        guard let type = GGUFValueType(rawValue: code) else { throw r.fail("unknown value type \(code)", at: at) }
        return type
    }

    private static func readValue(_ r: inout GGUFReader, _ type: GGUFValueType, key: String,
                                  depth: Int) throws(GGUFReader.Failure) -> GGUFValue {
        let at = r.position
        let what = "the value of \(key)"
        switch type {
        case .uint8, .uint16, .uint32, .uint64:
            return .unsigned(try r.little(type.fixedSize!, what))
        case .int8, .int16, .int32, .int64:
            let width = type.fixedSize!
            let raw = try r.little(width, what)
            // Sign-extend from the value's width.
            let shift = UInt64(64 - 8 * width)
            return .signed(Int64(bitPattern: raw << shift) >> Int64(shift))
        case .float32:
            return .float(Double(Float(bitPattern: UInt32(truncatingIfNeeded: try r.little(4, what)))))
        case .float64:
            return .float(Double(bitPattern: try r.little(8, what)))
        case .bool:
            let b = try r.u8(what)
            guard b <= 1 else { throw r.fail("bool \(key) is \(b), not 0 or 1", at: at) }
            return .bool(b == 1)
        case .string:
            return .string(try r.string(what))
        case .array:
            guard depth < maxArrayDepth else { throw r.fail("arrays nested deeper than \(maxArrayDepth) in \(key)", at: at) }
            let element = try valueType(&r, "the element type of \(key)")
            let count = try r.count("the array count of \(key)", minimumSize: element.minimumSize)
            let start = r.position
            var strings: [Range<Int>] = []
            if let size = element.fixedSize {
                try r.skip(count * size, what)
            } else if element == .string {
                strings.reserveCapacity(count)
                for i in 0..<count { strings.append(try r.string("element \(i) of \(key)")) }
            } else {
                for i in 0..<count { _ = try readValue(&r, .array, key: "\(key)[\(i)]", depth: depth + 1) }
            }
            return .array(GGUFArray(elementType: element, count: count, start: start, strings: strings))
        }
    }
}
