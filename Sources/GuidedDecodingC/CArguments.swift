import GuidedSchema

/// Checked reading of C arguments: every pointer/length pair is read within its length, text must be
/// UTF-8, and a NULL where a value is required is an error, never a crash.
enum CArguments {
    /// `len` bytes at `text` as a String; NULL text is allowed only when `len` is 0.
    static func text(_ text: UnsafePointer<CChar>?, _ len: Int, name: String) throws(CallError) -> String {
        if len == 0 { return "" }
        guard let text else { throw .null(name) }
        guard len > 0 else { throw CallError(.invalidArgument, "\(name): length \(len) is negative") }
        let bytes = UnsafeRawBufferPointer(start: text, count: len).bindMemory(to: UInt8.self)
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw CallError(.invalidArgument, "\(name) is not valid UTF-8 (byte \(firstInvalidUTF8(bytes)) of \(len))")
        }
        return s
    }

    /// A NUL-terminated C string (NULL: nil).
    static func cString(_ text: UnsafePointer<CChar>?, name: String) throws(CallError) -> String? {
        guard let text else { return nil }
        return try Self.text(text, strlen(text), name: name)
    }

    /// An options object given as JSON text (NULL or empty: no options).
    static func options(_ json: UnsafePointer<CChar>?) throws(CallError) -> JSONObject {
        guard let text = try cString(json, name: "options_json"), !text.isEmpty else { return JSONObject() }
        let value: JSONValue
        do throws(JSONParseError) { value = try JSONParser.parse(text) } catch {
            throw CallError(.invalidArgument, "options_json: \(error.description)")
        }
        guard let object = value.objectValue else {
            throw CallError(.invalidArgument, "options_json must be a JSON object, not \(value.typeName)")
        }
        return object
    }

    /// Reads `count` elements at `pointer` (NULL allowed only when `count` is 0).
    static func buffer<T>(_ pointer: UnsafePointer<T>?, _ count: Int, name: String) throws(CallError) -> UnsafeBufferPointer<T> {
        if count == 0 { return UnsafeBufferPointer(start: nil, count: 0) }
        guard let pointer else { throw .null(name) }
        guard count > 0 else { throw CallError(.invalidArgument, "\(name): count \(count) is negative") }
        return UnsafeBufferPointer(start: pointer, count: count)
    }

    /// Offset of the first byte where `bytes` stops being UTF-8 (for the message).
    private static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput, .error: return offset
            }
        }
    }

    private static func strlen(_ p: UnsafePointer<CChar>) -> Int {
        var n = 0
        while p[n] != 0 { n += 1 }
        return n
    }
}

extension JSONValue {
    /// "string", "object", ... for messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
