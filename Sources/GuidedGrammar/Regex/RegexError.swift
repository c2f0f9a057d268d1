/// Why a regex was rejected, and where: `offset` counts Unicode scalars from the start of the pattern.
///
/// Parse errors (malformed syntax) and refusals (valid regex features that are not regular, such as
/// lookaround and backreferences, or anchors the lowering cannot express exactly) share this type so
/// callers report both the same way; `kind` tells them apart.
public struct RegexError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The pattern is not a valid regex.
        case syntax
        /// A valid regex feature that cannot be enforced exactly by a finite automaton (or not yet).
        case unsupported
        /// A bound was exceeded (nesting depth, repeat count).
        case limit
    }

    public let offset: Int
    public let kind: Kind
    /// What was found and, where useful, what was expected.
    public let message: String

    public init(offset: Int, kind: Kind, _ message: String) {
        self.offset = offset
        self.kind = kind
        self.message = message
    }

    public var description: String { "regex error at offset \(offset): \(message)" }
}
