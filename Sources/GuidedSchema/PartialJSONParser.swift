/// What a JSON text cut at some byte shows so far: the value with every open container closed, and
/// whether the text was in fact a complete document.
public struct PartialJSON: Sendable, Equatable {
    /// The value so far; nil while nothing can be shown yet (empty text, white space, a lone `-`).
    public var value: JSONValue?
    /// True when the text is a complete JSON document (then `value` is exactly what `JSONParser` returns).
    public var isComplete: Bool

    public init(value: JSONValue?, isComplete: Bool) {
        self.value = value
        self.isComplete = isComplete
    }
}

/// A tolerant parser for JSON streamed byte by byte (model output cut anywhere), for live snapshots.
///
/// The snapshot of a cut text is built by these rules, so that it only ever grows towards the final value:
/// - open strings, arrays and objects are closed where the text stops;
/// - in a string, an unfinished escape (`\`, `\u00`, a high surrogate waiting for its low half) and an
///   unfinished UTF-8 sequence are left out;
/// - an object member appears once its value has started: a key being written, a key without `:` and a key
///   with `:` but no value yet are dropped;
/// - a number shows its longest complete literal prefix: `-` shows nothing, `1.` and `1e+` show `1`, `12`
///   shows `12` (it may still grow to `123`; `isComplete` tells when it cannot);
/// - a literal shows as soon as its first letter fixes it: `t` and `tru` show `true`, `n` shows `null`.
///
/// Text that is not the beginning of any JSON document throws the same `JSONParseError` (position and
/// message) a strict parse would, e.g. `[1,]` or `{"a" 1`. Each call parses the whole prefix (O(n)).
public enum PartialJSONParser {
    public static func parse(_ text: String) throws(JSONParseError) -> PartialJSON {
        try parse(bytes: Array(text.utf8))
    }

    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> PartialJSON {
        var scanner = PartialJSONScanner(bytes: bytes)
        scanner.skipWhitespace()
        if scanner.atEnd { return PartialJSON(value: nil, isComplete: false) }
        let piece = try scanner.value(depth: 0)
        guard piece.complete else {
            // A bare number running to the end ("12") is a complete document, though "123" could follow.
            if case .number(let n)? = piece.value, scanner.atEnd, bytes.last.map({ $0 >= 48 && $0 <= 57 }) == true,
                (try? JSONParser.parse(bytes: bytes)) == .number(n)
            {
                return PartialJSON(value: piece.value, isComplete: true)
            }
            return PartialJSON(value: piece.value, isComplete: false)
        }
        scanner.skipWhitespace()
        if !scanner.atEnd { throw scanner.error("unexpected text after the JSON value") }
        return PartialJSON(value: piece.value, isComplete: true)
    }
}

/// The scanner behind `PartialJSONParser`: a strict recursive descent that returns what it has when the
/// bytes run out instead of failing.
struct PartialJSONScanner {
    /// A value, and whether its text ended before the value did.
    struct Piece {
        var value: JSONValue?
        var complete: Bool
    }

    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { i >= bytes.count }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParser(bytes: bytes).error(message, at: offset ?? i)
    }

    mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> Piece {
        guard i < bytes.count else { return Piece(value: nil, complete: false) }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            let (s, complete) = try string()
            return Piece(value: .string(s), complete: complete)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a value")
        }
    }

    mutating func literal(_ word: String, _ v: JSONValue) throws(JSONParseError) -> Piece {
        let start = i
        for b in word.utf8 {
            if i == bytes.count { return Piece(value: v, complete: false) }
            guard bytes[i] == b else { throw error("expected '\(word)'", at: start) }
            i += 1
        }
        return Piece(value: v, complete: true)
    }

    mutating func number() throws(JSONParseError) -> Piece {
        let start = i
        // `end` marks the longest complete literal so far.
        var end: Int?
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
        if i == intStart {
            if i == bytes.count { return Piece(value: nil, complete: false) }
            throw error("expected a digit")
        }
        if i - intStart > 1, bytes[intStart] == 48 { throw error("leading zero in a number", at: intStart) }
        end = i
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            if i == fracStart {
                if i == bytes.count { return numberPiece(start, end!, complete: false) }
                throw error("expected a digit after '.'")
            }
            end = i
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let expStart = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            if i == expStart {
                if i == bytes.count { return numberPiece(start, end!, complete: false) }
                throw error("expected a digit in the exponent")
            }
            end = i
        }
        // Digits running into the end of the text could continue.
        return numberPiece(start, end!, complete: i < bytes.count)
    }

    func numberPiece(_ start: Int, _ end: Int, complete: Bool) -> Piece {
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return Piece(value: JSONNumber(literal: text).map(JSONValue.number), complete: complete)
    }

    mutating func array(depth: Int) throws(JSONParseError) -> Piece {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        i += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if atEnd { return Piece(value: .array(items), complete: false) }
        if bytes[i] == UInt8(ascii: "]") { i += 1; return Piece(value: .array(items), complete: true) }
        while true {
            skipWhitespace()
            let item = try value(depth: depth)
            if let v = item.value { items.append(v) }
            if !item.complete { return Piece(value: .array(items), complete: false) }
            skipWhitespace()
            if atEnd { return Piece(value: .array(items), complete: false) }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipWhitespace()
                if atEnd { return Piece(value: .array(items), complete: false) }
                continue
            }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return Piece(value: .array(items), complete: true) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> Piece {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        i += 1
        var object = JSONObject()
        skipWhitespace()
        if atEnd { return Piece(value: .object(object), complete: false) }
        if bytes[i] == UInt8(ascii: "}") { i += 1; return Piece(value: .object(object), complete: true) }
        while true {
            skipWhitespace()
            if atEnd { return Piece(value: .object(object), complete: false) }
            guard bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let (key, keyComplete) = try string()
            skipWhitespace()
            // A key without its value yet is not shown.
            if !keyComplete || atEnd { return Piece(value: .object(object), complete: false) }
            guard bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipWhitespace()
            if atEnd { return Piece(value: .object(object), complete: false) }
            let member = try value(depth: depth)
            if let v = member.value { object[key] = v }
            if !member.complete { return Piece(value: .object(object), complete: false) }
            skipWhitespace()
            if atEnd { return Piece(value: .object(object), complete: false) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return Piece(value: .object(object), complete: true) }
            throw error("expected ',' or '}'")
        }
    }

    /// A string from its opening quote; at the end of the text, what was read so far and `false`.
    mutating func string() throws(JSONParseError) -> (String, Bool) {
        i += 1
        var out: [UInt8] = []
        func done(_ complete: Bool) -> (String, Bool) { (String(decoding: out, as: UTF8.self), complete) }
        while true {
            guard i < bytes.count else { return done(false) }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; return done(true) }
            if c < 0x20 { throw error("control character in a string must be escaped") }
            if c != UInt8(ascii: "\\") {
                guard let len = try utf8SequenceLength(at: i) else { return done(false) }
                out.append(contentsOf: bytes[i..<i + len])
                i += len
                continue
            }
            let escapeStart = i
            i += 1
            guard i < bytes.count else { return done(false) }
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
                guard var scalar = try hex4() else { return done(false) }
                if (0xD800..<0xDC00).contains(scalar) {
                    if i == bytes.count || (i + 1 == bytes.count && bytes[i] == UInt8(ascii: "\\")) { return done(false) }
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    guard let low = try hex4() else { return done(false) }
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: escapeStart)
            }
        }
    }

    /// Four hex digits, nil when the text ends inside them.
    mutating func hex4() throws(JSONParseError) -> UInt32? {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { return nil }
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

    /// Length of the UTF-8 sequence at `k`; nil when the text ends inside a sequence that is valid so far.
    func utf8SequenceLength(at k: Int) throws(JSONParseError) -> Int? {
        switch UTF8Scan.sequence(in: bytes, at: k) {
        case .valid(let len): return len
        case .truncated: return nil
        case .invalidLead(let b): throw error("invalid UTF-8 byte 0x\(String(b, radix: 16))", at: k)
        case .invalidContinuation: throw error("invalid UTF-8 sequence", at: k)
        }
    }
}
