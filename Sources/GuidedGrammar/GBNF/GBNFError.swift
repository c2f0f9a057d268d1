/// Why a GBNF grammar text was refused: 1-based line and column (columns count Unicode scalars) and
/// what was expected there.
public struct GBNFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Offset of the problem in Unicode scalars from the start of the text.
    public let offset: Int
    public let line: Int
    public let column: Int
    public let message: String

    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "GBNF error at line \(line), column \(column): \(message)" }
}
