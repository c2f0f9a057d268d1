/// The command line is wrong: the message names the argument and what was expected. Commands exit 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }

    public static func badValue(_ value: String, for option: String, expected: String) -> UsageError {
        UsageError("invalid value '\(value)' for \(option): expected \(expected)")
    }
}
