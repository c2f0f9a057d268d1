/// Little-endian reads from a GGUF file's bytes. Every count and length read from the file is checked
/// against the bytes that remain *before* anything is allocated or skipped, so a corrupt or hostile file
/// (a string length of 2^63, an array count of 2^62) fails with the offset of the bad field instead of
/// allocating or trapping.
struct GGUFReader {
    struct Failure: Error, Equatable {
        /// Byte offset of the field that could not be read.
        let offset: Int
        let message: String
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    func fail(_ message: String, at offset: Int) -> Failure { Failure(offset: offset, message: message) }

    private func need(_ n: Int, _ what: String) throws(Failure) {
        guard n <= remaining else { throw fail("truncated: \(what) needs \(n) bytes, \(remaining) remain", at: position) }
    }

    mutating func u8(_ what: String) throws(Failure) -> UInt8 {
        try need(1, what)
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u32(_ what: String) throws(Failure) -> UInt32 { UInt32(truncatingIfNeeded: try little(4, what)) }

    mutating func u64(_ what: String) throws(Failure) -> UInt64 { try little(8, what) }

    /// An unsigned little-endian integer of `width` bytes (1, 2, 4 or 8).
    mutating func little(_ width: Int, _ what: String) throws(Failure) -> UInt64 {
        try need(width, what)
        var v: UInt64 = 0
        for k in 0..<width { v |= UInt64(bytes[position + k]) << (8 * k) }
        position += width
        return v
    }

    /// A 64-bit element count whose elements take at least `minimumSize` bytes each: refused unless that
    /// many elements could fit in what remains of the file.
    mutating func count(_ what: String, minimumSize: Int) throws(Failure) -> Int {
        let at = position
        let n = try u64(what)
        guard n <= UInt64(remaining / max(minimumSize, 1)) else {
            throw fail("\(what) is \(n): at \(minimumSize) bytes or more each, more than the \(remaining) bytes that remain", at: at)
        }
        return Int(n)
    }

    /// A GGUF string (u64 byte length, then the bytes, no terminator): the range of its bytes in the file.
    mutating func string(_ what: String) throws(Failure) -> Range<Int> {
        let at = position
        let n = try u64("the length of \(what)")
        guard n <= UInt64(remaining) else {
            throw fail("the length \(n) of \(what) runs past the end of the file (\(remaining) bytes remain)", at: at)
        }
        let start = position
        position += Int(n)
        return start..<position
    }

    /// Skips `n` bytes (the elements of a fixed-size array).
    mutating func skip(_ n: Int, _ what: String) throws(Failure) {
        try need(n, what)
        position += n
    }
}
