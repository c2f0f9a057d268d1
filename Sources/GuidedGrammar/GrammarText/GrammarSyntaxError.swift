/// Why a Lark or EBNF grammar text was refused: the language, the 1-based line and column (columns
/// count Unicode scalars) and what was wrong there. Malformed text and constructs that are read but not
/// supported (named in the message) share this type.
public struct GrammarSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Language: String, Sendable {
        case lark = "Lark"
        case ebnf = "EBNF"
    }

    public let language: Language
    /// Offset of the problem in Unicode scalars from the start of the text.
    public let offset: Int
    public let line: Int
    public let column: Int
    public let message: String

    public init(language: Language, offset: Int, line: Int, column: Int, message: String) {
        self.language = language
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(language.rawValue) error at line \(line), column \(column): \(message)" }
}

/// A grammar text as scalars, with the positions errors are reported at.
struct SourceText {
    let s: [Unicode.Scalar]
    let language: GrammarSyntaxError.Language

    init(_ text: String, language: GrammarSyntaxError.Language) {
        s = Array(text.unicodeScalars)
        self.language = language
    }

    var count: Int { s.count }
    subscript(_ i: Int) -> Unicode.Scalar? { i >= 0 && i < s.count ? s[i] : nil }

    func error(_ message: String, at offset: Int) -> GrammarSyntaxError {
        let at = min(max(offset, 0), s.count)
        var line = 1, lineStart = 0
        // A CRLF is one line break; a lone CR counts as one too.
        var k = 0
        while k < at {
            if s[k] == "\n" || (s[k] == "\r" && (k + 1 >= s.count || s[k + 1] != "\n")) { line += 1; lineStart = k + 1 }
            k += 1
        }
        return GrammarSyntaxError(language: language, offset: at, line: line, column: at - lineStart + 1, message: message)
    }

    /// "line L, column C" of an offset.
    func position(_ offset: Int) -> String {
        let e = error("", at: offset)
        return "line \(e.line), column \(e.column)"
    }

    /// A readable name for the scalar at `offset`.
    func found(_ offset: Int) -> String {
        guard let c = self[offset] else { return "end of input" }
        switch c {
        case "\n": return "end of line"
        case "\r": return "carriage return"
        case "\t": return "tab"
        default: return "'\(Character(c))'"
        }
    }

    func text(_ range: Range<Int>) -> String {
        var out = ""
        out.unicodeScalars.append(contentsOf: s[range])
        return out
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 48
        case "a"..."f": return c.value - 87
        case "A"..."F": return c.value - 55
        default: return nil
        }
    }
}
