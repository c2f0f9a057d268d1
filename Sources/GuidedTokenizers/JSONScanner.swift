/// A small, fast JSON reader for `tokenizer.json` files (GuidedTokenizers does not depend on GuidedSchema).
/// Small parts of the file become a `JSONNode` tree; the two large tables (`model.vocab`, `model.merges`) are
/// read straight into flat byte buffers by the loader, without one `String` per entry.
///
/// The input must already be valid UTF-8 (checked once by `UTF8Validation`); escapes are decoded here and
/// every error carries its byte offset.
struct JSONScanner {
    struct Failure: Error { let offset: Int; let message: String }

    let d: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ d: UnsafeBufferPointer<UInt8>) { self.d = d }

    @inline(__always) mutating func skipSpace() {
        while i < d.count {
            let c = d[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    func fail(_ message: String, at offset: Int? = nil) -> Failure { Failure(offset: offset ?? i, message: message) }

    mutating func peek() throws(Failure) -> UInt8 {
        skipSpace()
        guard i < d.count else { throw fail("unexpected end of input") }
        return d[i]
    }

    mutating func expect(_ c: UInt8) throws(Failure) {
        let got = try peek()
        guard got == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))', found '\(Character(Unicode.Scalar(got)))'") }
        i += 1
    }

    /// Reads a string literal, appending its decoded UTF-8 bytes to `out`.
    mutating func readString(into out: inout [UInt8]) throws(Failure) {
        try expect(0x22)
        while true {
            guard i < d.count else { throw fail("unterminated string") }
            let c = d[i]
            if c == 0x22 { i += 1; return }
            if c == 0x5C {
                i += 1
                guard i < d.count else { throw fail("unterminated string") }
                let e = d[i]
                i += 1
                switch e {
                case 0x22: out.append(0x22)
                case 0x5C: out.append(0x5C)
                case 0x2F: out.append(0x2F)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    let start = i - 2
                    var scalar = try readHex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard i + 1 < d.count, d[i] == 0x5C, d[i + 1] == 0x75 else { throw fail("lone surrogate \\u escape", at: start) }
                        i += 2
                        let low = try readHex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw fail("lone surrogate \\u escape", at: start) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw fail("lone surrogate \\u escape", at: start)
                    }
                    appendUTF8(scalar, &out)
                default:
                    throw fail("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: i - 2)
                }
            } else {
                guard c >= 0x20 else { throw fail("control character in string") }
                out.append(c)
                i += 1
            }
        }
    }

    private mutating func readHex4() throws(Failure) -> UInt32 {
        guard i + 4 <= d.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = d[i]
            let h: UInt32
            switch c {
            case 0x30...0x39: h = UInt32(c - 0x30)
            case 0x41...0x46: h = UInt32(c - 0x41 + 10)
            case 0x61...0x66: h = UInt32(c - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | h
            i += 1
        }
        return v
    }

    mutating func readString() throws(Failure) -> String {
        var bytes: [UInt8] = []
        try readString(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a number literal (integers exactly, others as Double).
    mutating func readNumber() throws(Failure) -> JSONNode {
        skipSpace()
        let start = i
        if i < d.count && d[i] == 0x2D { i += 1 }
        var digits = 0
        while i < d.count && d[i] >= 0x30 && d[i] <= 0x39 { i += 1; digits += 1 }
        guard digits > 0 else { throw fail("invalid number", at: start) }
        var isInteger = true
        if i < d.count && d[i] == 0x2E {
            isInteger = false
            i += 1
            var frac = 0
            while i < d.count && d[i] >= 0x30 && d[i] <= 0x39 { i += 1; frac += 1 }
            guard frac > 0 else { throw fail("invalid number", at: start) }
        }
        if i < d.count && (d[i] == 0x65 || d[i] == 0x45) {
            isInteger = false
            i += 1
            if i < d.count && (d[i] == 0x2B || d[i] == 0x2D) { i += 1 }
            var exp = 0
            while i < d.count && d[i] >= 0x30 && d[i] <= 0x39 { i += 1; exp += 1 }
            guard exp > 0 else { throw fail("invalid number", at: start) }
        }
        let text = String(decoding: d[start..<i], as: UTF8.self)
        if isInteger, let n = Int(text) { return .integer(n) }
        return .double(Double(text) ?? .nan)
    }

    mutating func readInteger() throws(Failure) -> Int {
        let at = i
        guard case .integer(let n) = try readNumber() else { throw fail("expected an integer", at: at) }
        return n
    }

    mutating func readLiteral(_ word: String, _ value: JSONNode) throws(Failure) -> JSONNode {
        let w = Array(word.utf8)
        let n = w.count
        guard i + n <= d.count else { throw fail("unexpected end of input") }
        for k in 0..<n where d[i + k] != w[k] { throw fail("invalid literal") }
        i += n
        return value
    }

    /// Calls `body` for each key of an object; `body` must consume the value.
    mutating func forEachKey(_ body: (inout JSONScanner, String) throws(Failure) -> Void) throws(Failure) {
        try expect(0x7B)
        if try peek() == 0x7D { i += 1; return }
        while true {
            let key = try readString()
            try expect(0x3A)
            try body(&self, key)
            let c = try peek()
            i += 1
            if c == 0x7D { return }
            guard c == 0x2C else { throw fail("expected ',' or '}'", at: i - 1) }
        }
    }

    /// Calls `body` for each element of an array; `body` must consume the element.
    mutating func forEachElement(_ body: (inout JSONScanner) throws(Failure) -> Void) throws(Failure) {
        try expect(0x5B)
        if try peek() == 0x5D { i += 1; return }
        while true {
            try body(&self)
            let c = try peek()
            i += 1
            if c == 0x5D { return }
            guard c == 0x2C else { throw fail("expected ',' or ']'", at: i - 1) }
        }
    }

    mutating func readValue(depth: Int = 0) throws(Failure) -> JSONNode {
        guard depth < 200 else { throw fail("nesting too deep") }
        switch try peek() {
        case 0x7B:
            var entries: [(String, JSONNode)] = []
            try forEachKey { (s: inout JSONScanner, key: String) throws(Failure) in entries.append((key, try s.readValue(depth: depth + 1))) }
            return .object(entries)
        case 0x5B:
            var items: [JSONNode] = []
            try forEachElement { (s: inout JSONScanner) throws(Failure) in items.append(try s.readValue(depth: depth + 1)) }
            return .array(items)
        case 0x22: return .string(try readString())
        case 0x74: return try readLiteral("true", .bool(true))
        case 0x66: return try readLiteral("false", .bool(false))
        case 0x6E: return try readLiteral("null", .null)
        default: return try readNumber()
        }
    }

    mutating func expectEnd() throws(Failure) {
        skipSpace()
        guard i == d.count else { throw fail("unexpected data after the JSON value") }
    }
}

/// A parsed JSON value (small parts of tokenizer.json only).
indirect enum JSONNode {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    case array([JSONNode])
    case object([(String, JSONNode)])

    subscript(key: String) -> JSONNode? {
        if case .object(let entries) = self { return entries.first { $0.0 == key }?.1 }
        return nil
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var int: Int? { if case .integer(let n) = self { return n } else { return nil } }
    var array: [JSONNode]? { if case .array(let a) = self { return a } else { return nil } }
    var isNull: Bool { if case .null = self { return true } else { return false } }
}

func appendUTF8(_ scalar: UInt32, _ out: inout [UInt8]) {
    if scalar < 0x80 {
        out.append(UInt8(scalar))
    } else if scalar < 0x800 {
        out.append(UInt8(0xC0 | scalar >> 6)); out.append(UInt8(0x80 | scalar & 0x3F))
    } else if scalar < 0x10000 {
        out.append(UInt8(0xE0 | scalar >> 12)); out.append(UInt8(0x80 | scalar >> 6 & 0x3F)); out.append(UInt8(0x80 | scalar & 0x3F))
    } else {
        out.append(UInt8(0xF0 | scalar >> 18)); out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F)); out.append(UInt8(0x80 | scalar & 0x3F))
    }
}

enum UTF8Validation {
    /// Offset of the first byte that is not part of valid UTF-8, or nil.
    static func firstInvalidOffset(_ d: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = d.count
        while i < n {
            let c = d[i]
            if c < 0x80 { i += 1; continue }
            let len: Int
            var minScalar: UInt32
            var scalar: UInt32
            if c & 0xE0 == 0xC0 { len = 2; minScalar = 0x80; scalar = UInt32(c & 0x1F) }
            else if c & 0xF0 == 0xE0 { len = 3; minScalar = 0x800; scalar = UInt32(c & 0x0F) }
            else if c & 0xF8 == 0xF0 { len = 4; minScalar = 0x10000; scalar = UInt32(c & 0x07) }
            else { return i }
            guard i + len <= n else { return i }
            for k in 1..<len {
                let cc = d[i + k]
                guard cc & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(cc & 0x3F)
            }
            if scalar < minScalar || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar < 0xE000) { return i }
            i += len
        }
        return nil
    }
}
