/// JSON Pointers (RFC 6901): how violations name instance and schema locations, and how `$ref` fragments
/// address a subschema.
public enum JSONPointer {
    /// Escapes one reference token (`~` to `~0`, `/` to `~1`).
    public static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// Undoes `escape` for one reference token.
    public static func unescape(_ token: String) -> String {
        guard token.contains("~") else { return token }
        return token.replacing("~1", with: "/").replacing("~0", with: "~")
    }

    /// `pointer` extended by one (unescaped) token.
    public static func appending(_ pointer: String, _ token: String) -> String { pointer + "/" + escape(token) }

    /// The pointer text for a list of tokens (`""` for the whole document).
    public static func text(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    /// The unescaped tokens of a pointer, nil if it does not start with `/` (the empty pointer gives `[]`).
    public static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        // Split by scalars: as Characters, "/" followed by a combining mark is one and would not split.
        let scalars = pointer.unicodeScalars
        guard scalars.first == "/" else { return nil }
        return scalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            unescape(String(String.UnicodeScalarView($0)))
        }
    }

    /// The value a pointer designates inside `root`, or nil.
    public static func resolve(_ pointer: String, in root: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var v = root
        for t in tokens {
            guard let next = step(v, t) else { return nil }
            v = next
        }
        return v
    }

    static func step(_ v: JSONValue, _ token: String) -> JSONValue? {
        switch v {
        case .object(let o): return o[token]
        case .array(let a):
            guard let i = Int(token), i >= 0, i < a.count, token == String(i) else { return nil }
            return a[i]
        default: return nil
        }
    }
}

/// Percent-decoding for URI fragments (`#/definitions/a%25b`).
enum PercentDecoding {
    static func decode(_ s: String) -> String {
        guard s.contains("%") else { return s }
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            if u[i] == 0x25, i + 2 < u.count, let h = hex(u[i + 1]), let l = hex(u[i + 2]) {
                bytes.append(h << 4 | l)
                i += 3
            } else {
                bytes.append(u[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}
