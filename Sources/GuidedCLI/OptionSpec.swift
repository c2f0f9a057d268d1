/// One `--name` a command accepts: a flag, or an option that takes a value.
public struct OptionSpec: Sendable, Equatable {
    /// With its dashes, e.g. `--count`.
    public let name: String
    /// What the value is, e.g. `N` or `FILE`; nil for a flag that takes none.
    public let valueName: String?
    /// One line for `--help`.
    public let help: String
    /// Whether it may be given more than once (each value kept, in order).
    public let repeats: Bool

    public init(_ name: String, value valueName: String? = nil, help: String, repeats: Bool = false) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.repeats = repeats
    }

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name, help: help)
    }
}

/// A positional argument, e.g. `DIR`.
public struct PositionalSpec: Sendable, Equatable {
    public let name: String
    public let help: String
    public let required: Bool

    public init(_ name: String, help: String, required: Bool = true) {
        self.name = name
        self.help = help
        self.required = required
    }
}
