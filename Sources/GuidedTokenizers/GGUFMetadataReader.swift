/// Typed access to a parsed GGUF file's metadata while its bytes are at hand. Each getter returns nil for an
/// absent key and throws `wrongMetadataType` (with the offset of the value's type field) for a key that
/// holds another type: a file that spells a key differently than llama.cpp reads it is refused, not guessed.
struct GGUFMetadataReader {
    let file: GGUFFile
    let bytes: UnsafeRawBufferPointer

    private func entry(_ key: String) -> GGUFMetadata? { file.metadata[key] }

    private func wrong(_ key: String, _ expected: String, _ m: GGUFMetadata) -> TokenizerError.Problem {
        .wrongMetadataType(key: key, expected: expected, found: m.typeName, offset: m.typeOffset)
    }

    func string(_ key: String) throws(TokenizerError.Problem) -> String? {
        guard let m = entry(key) else { return nil }
        guard case .string(let r) = m.value else { throw wrong(key, "string", m) }
        return String(decoding: bytes[r], as: UTF8.self)
    }

    func bool(_ key: String) throws(TokenizerError.Problem) -> Bool? {
        guard let m = entry(key) else { return nil }
        guard case .bool(let b) = m.value else { throw wrong(key, "bool", m) }
        return b
    }

    /// A token id: any integer type (converters write uint32), at most `limit` (exclusive).
    func tokenID(_ key: String, below limit: Int) throws(TokenizerError.Problem) -> Int? {
        guard let m = entry(key) else { return nil }
        let value: Int64
        switch m.value {
        case .unsigned(let u): value = u > UInt64(Int64.max) ? -1 : Int64(u)
        case .signed(let s): value = s
        default: throw wrong(key, "an integer", m)
        }
        guard value >= 0, value < Int64(limit) else {
            throw .invalidVocabulary("\(key) is \(value), not one of the \(limit) token ids")
        }
        return Int(value)
    }

    /// The element ranges of an array of strings.
    func strings(_ key: String) throws(TokenizerError.Problem) -> [Range<Int>]? {
        guard let m = entry(key) else { return nil }
        guard case .array(let a) = m.value, a.elementType == .string else { throw wrong(key, "array of string", m) }
        return a.strings
    }

    func int32s(_ key: String) throws(TokenizerError.Problem) -> [Int32]? {
        guard let m = entry(key) else { return nil }
        guard case .array(let a) = m.value, a.elementType == .int32 else { throw wrong(key, "array of int32", m) }
        return (0..<a.count).map { Int32(bitPattern: word(at: a.start + 4 * $0)) }
    }

    func float32s(_ key: String) throws(TokenizerError.Problem) -> [Float]? {
        guard let m = entry(key) else { return nil }
        guard case .array(let a) = m.value, a.elementType == .float32 else { throw wrong(key, "array of float32", m) }
        return (0..<a.count).map { Float(bitPattern: word(at: a.start + 4 * $0)) }
    }

    /// Whether `key` is present with a non-empty value (used to refuse features such as a precompiled
    /// character map without caring how the file typed it).
    func hasNonEmpty(_ key: String) -> Bool {
        guard let m = entry(key) else { return false }
        switch m.value {
        case .string(let r): return !r.isEmpty
        case .array(let a): return a.count > 0
        default: return true
        }
    }

    /// A little-endian u32 inside an array the parser already bounds-checked.
    private func word(at offset: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[offset + k]) << (8 * k) }
        return v
    }
}
