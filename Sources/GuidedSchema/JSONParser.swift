/// Where a JSON text went wrong: byte offset, 1-based line and column (column counts bytes), and what was
/// expected there.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offset: Int
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String { "JSON error at line \(line), column \(column): \(message)" }
}

/// Strict RFC 8259 parser producing `JSONValue`s that keep key order and number literals.
public struct JSONParser {
    /// Nesting deeper than this is an error rather than a stack overflow.
    public static let maximumDepth = 1_000

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        p.skipWhitespace()
        let v = try p.parseValue(depth: 0)
        p.skipWhitespace()
        if p.i < p.bytes.count { throw p.error("unexpected text after the JSON value") }
        return v
    }

    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let at = min(offset ?? i, bytes.count)
        var line = 1, lineStart = 0
        for k in 0..<at where bytes[k] == 0x0A { line += 1; lineStart = k + 1 }
        return JSONParseError(offset: at, line: line, column: at - lineStart + 1, message: message)
    }

    mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard i < bytes.count else { throw error("expected a value, found end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a value")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = i
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in w {
            guard i < bytes.count, bytes[i] == b else { throw error("expected '\(word)'", at: start) }
            i += 1
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        i += 1
        var object = JSONObject()
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipWhitespace()
            object[key] = try parseValue(depth: depth)
            skipWhitespace()
            guard i < bytes.count else { throw error("expected ',' or '}', found end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(object) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        i += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard i < bytes.count else { throw error("expected ',' or ']', found end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, p.bytes[p.i] >= 48, p.bytes[p.i] <= 57 { p.i += 1 }
            return p.i - s
        }
        let intStart = i
        let n = digits(&self)
        if n == 0 { throw error("expected a digit") }
        if n > 1, bytes[intStart] == 48 { throw error("leading zero in a number", at: intStart) }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            if digits(&self) == 0 { throw error("expected a digit after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits(&self) == 0 { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let number = JSONNumber(literal: text) else { throw error("malformed number", at: start) }
        return number
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("expected four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw error("expected a hex digit")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    mutating func parseString() throws(JSONParseError) -> String {
        i += 1
        // Most strings (keys, keywords, names) are plain ASCII without escapes: made straight from the
        // input bytes. The general loop below copied them byte run by byte run (a 166 KB Kubernetes
        // schema took 3 ms to parse, most of it here).
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: bytes[start..<i - 1], as: UTF8.self)
            }
            if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\\") { break }
            i += 1
        }
        var out = Array(bytes[start..<i])
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; break }
            if c < 0x20 { throw error("control character in a string must be escaped") }
            if c < 0x80 && c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            if c != UInt8(ascii: "\\") {
                // Validate UTF-8 as we copy: a JSON text must be Unicode.
                let len = try utf8SequenceLength(at: i)
                out.append(contentsOf: bytes[i..<i + len])
                i += len
                continue
            }
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: i - 2)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Length of the well-formed UTF-8 sequence at `at`, or an error naming the bad byte.
    func utf8SequenceLength(at k: Int) throws(JSONParseError) -> Int {
        switch UTF8Scan.sequence(in: bytes, at: k) {
        case .valid(let len): return len
        case .truncated: throw error("truncated UTF-8 sequence", at: k)
        case .invalidLead(let b): throw error("invalid UTF-8 byte 0x\(String(b, radix: 16))", at: k)
        case .invalidContinuation: throw error("invalid UTF-8 sequence", at: k)
        }
    }
}
