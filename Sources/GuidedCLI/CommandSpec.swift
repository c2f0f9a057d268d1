/// What a command (or subcommand) accepts and says about itself: the source of both parsing and `--help`,
/// so every option that parses is also listed.
public struct CommandSpec: Sendable {
    /// As typed, e.g. `guided-conformance demo`.
    public let name: String
    /// One line: what it does.
    public let summary: String
    public let positionals: [PositionalSpec]
    public let options: [OptionSpec]
    /// Exit statuses and their meaning, in the order `--help` lists them.
    public let exitCodes: [(code: Int32, meaning: String)]
    /// Further paragraphs for `--help` (defaults, examples).
    public let notes: [String]

    public init(name: String, summary: String, positionals: [PositionalSpec] = [], options: [OptionSpec],
                exitCodes: [(code: Int32, meaning: String)], notes: [String] = []) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
        self.exitCodes = exitCodes
        self.notes = notes
    }

    /// The options every command understands whether or not its table lists them.
    public static let builtIn = [
        OptionSpec.flag("--help", help: "print this help and exit"),
        OptionSpec.flag("--version", help: "print the version and exit"),
    ]

    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name } ?? Self.builtIn.first { $0.name == name }
    }

    /// One line: `usage: NAME POSITIONALS [options]`.
    public var usageLine: String {
        var parts = ["usage:", name]
        for p in positionals { parts.append(p.required ? p.name : "[\(p.name)]") }
        parts.append("[options]")
        return parts.joined(separator: " ")
    }

    /// The full `--help` text: usage, summary, arguments, every option with its line, exit statuses.
    public var helpText: String {
        var lines = [usageLine, "", summary]
        if !positionals.isEmpty {
            lines += ["", "arguments:"]
            lines += positionals.map { Self.row($0.name, $0.help) }
        }
        lines += ["", "options:"]
        for o in options + Self.builtIn {
            var label = o.valueName.map { "\(o.name) \($0)" } ?? o.name
            if o.name == "--help" { label = "-h, --help" }
            lines.append(Self.row(label, o.help + (o.repeats ? " (may be repeated)" : "")))
        }
        lines += ["", "exit status:"]
        lines += exitCodes.map { Self.row(String($0.code), $0.meaning) }
        for n in notes { lines += ["", n] }
        return lines.joined(separator: "\n")
    }

    private static func row(_ label: String, _ text: String) -> String {
        let width = 24
        let pad = label.count < width ? String(repeating: " ", count: width - label.count) : "  "
        return "  " + label + pad + text
    }
}
