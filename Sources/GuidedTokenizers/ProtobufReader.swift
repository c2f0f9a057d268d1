/// Reads protocol-buffer wire format by hand (varint, 64-bit, length-delimited, 32-bit fields): enough for a
/// SentencePiece `ModelProto` without a protobuf library. Every read is bounds-checked and reports the byte
/// offset of the problem.
struct ProtobufReader {
    enum WireValue {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes(Range<Int>)
        case fixed32(UInt32)
    }

    struct Failure: Error { let offset: Int; let message: String }

    let data: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    let end: Int

    init(_ data: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.data = data
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    mutating func readVarint() throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < end else { throw Failure(offset: start, message: "truncated varint") }
            let b = data[position]
            position += 1
            guard shift < 64 else { throw Failure(offset: start, message: "varint longer than 10 bytes") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// The next field: its number and value.
    mutating func next() throws(Failure) -> (field: Int, value: WireValue) {
        let start = position
        let key = try readVarint()
        let field = Int(key >> 3)
        guard field > 0 else { throw Failure(offset: start, message: "field number 0") }
        switch key & 7 {
        case 0:
            return (field, .varint(try readVarint()))
        case 1:
            guard end - position >= 8 else { throw Failure(offset: start, message: "truncated 64-bit field \(field)") }
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(data[position + k]) << (8 * UInt64(k)) }
            position += 8
            return (field, .fixed64(v))
        case 2:
            let length = try readVarint()
            guard length <= UInt64(end - position) else {
                throw Failure(offset: start, message: "length-delimited field \(field) of \(length) bytes runs past the end")
            }
            let r = position..<(position + Int(length))
            position = r.upperBound
            return (field, .bytes(r))
        case 5:
            guard end - position >= 4 else { throw Failure(offset: start, message: "truncated 32-bit field \(field)") }
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(data[position + k]) << (8 * UInt32(k)) }
            position += 4
            return (field, .fixed32(v))
        default:
            throw Failure(offset: start, message: "unsupported wire type \(key & 7) for field \(field)")
        }
    }
}
