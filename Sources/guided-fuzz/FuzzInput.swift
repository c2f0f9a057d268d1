/// Splits a fuzz input into parts at a separator byte, so one input can carry a grammar and the text
/// fed to it, or a schema and an instance.
struct FuzzInput {
    let bytes: [UInt8]

    /// The bytes before the first `separator` and the bytes after it (empty when there is none).
    func split(at separator: UInt8 = 0) -> (head: [UInt8], tail: [UInt8]) {
        guard let i = bytes.firstIndex(of: separator) else { return (bytes, []) }
        return (Array(bytes[..<i]), Array(bytes[(i + 1)...]))
    }

    /// The input as text when it is valid UTF-8 (the parsers under test take `String`).
    static func text(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}
