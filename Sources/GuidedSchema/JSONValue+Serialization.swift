/// How `JSONValue.serialized` spaces its output.
public enum JSONFormatting: Sendable, Equatable {
    /// No whitespace at all: `{"a":1,"b":[1,2]}`.
    case compact
    /// Python's `json.dumps` defaults, used by MaskBench: `{"a": 1, "b": [1, 2]}`.
    case pythonDefault
    /// Newlines and `indent` spaces per level (like `json.dumps(indent=n)`).
    case indented(Int)
}

extension JSONValue {
    /// The value as JSON text. Non-ASCII characters are written as UTF-8 (never `\u`-escaped); control
    /// characters are escaped. Numbers are written as their literal text.
    public func serialized(_ formatting: JSONFormatting = .compact) -> String {
        var out: [UInt8] = []
        write(into: &out, formatting: formatting, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    func write(into out: inout [UInt8], formatting: JSONFormatting, level: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, v) in items.enumerated() {
                if k > 0 { JSONValue.writeSeparator(into: &out, formatting) }
                JSONValue.writeBreak(into: &out, formatting, level: level + 1)
                v.write(into: &out, formatting: formatting, level: level + 1)
            }
            if !items.isEmpty { JSONValue.writeBreak(into: &out, formatting, level: level) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (k, member) in object.entries.enumerated() {
                if k > 0 { JSONValue.writeSeparator(into: &out, formatting) }
                JSONValue.writeBreak(into: &out, formatting, level: level + 1)
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if formatting != .compact { out.append(0x20) }
                member.value.write(into: &out, formatting: formatting, level: level + 1)
            }
            if !object.isEmpty { JSONValue.writeBreak(into: &out, formatting, level: level) }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeSeparator(into out: inout [UInt8], _ formatting: JSONFormatting) {
        out.append(UInt8(ascii: ","))
        if formatting == .pythonDefault { out.append(0x20) }
    }

    static func writeBreak(into out: inout [UInt8], _ formatting: JSONFormatting, level: Int) {
        if case .indented(let n) = formatting {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: n * level))
        }
    }

    /// Escapes as Python's `json.dumps(ensure_ascii=False)` does, so token sequences match MaskBench's.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized(.compact) }
}
