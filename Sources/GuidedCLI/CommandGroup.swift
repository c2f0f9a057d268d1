/// A tool made of subcommands (`guided-conformance demo ...`): its own `--help` lists them, `--version`
/// prints the shared version, an unknown command is a usage error (exit 2), and the rest goes to the
/// subcommand, which parses its own options.
public struct CommandGroup: Sendable {
    public struct Subcommand: Sendable {
        public let name: String
        public let summary: String
        public let run: @Sendable ([String]) -> Int32

        public init(_ name: String, _ summary: String, run: @escaping @Sendable ([String]) -> Int32) {
            self.name = name
            self.summary = summary
            self.run = run
        }
    }

    public let name: String
    public let summary: String
    public let subcommands: [Subcommand]
    public let notes: [String]

    public init(name: String, summary: String, subcommands: [Subcommand], notes: [String] = []) {
        self.name = name
        self.summary = summary
        self.subcommands = subcommands
        self.notes = notes
    }

    public var usageLine: String { "usage: \(name) <command> [options]" }

    public var helpText: String {
        var lines = [usageLine, "", summary, "", "commands:"]
        let width = max(16, (subcommands.map(\.name.count).max() ?? 0) + 2)
        for c in subcommands {
            lines.append("  " + c.name + String(repeating: " ", count: width - c.name.count) + c.summary)
        }
        lines += ["", "options:",
                  "  -h, --help              print this help and exit",
                  "  --version               print the version and exit",
                  "", "Every command takes --help for its options and exit statuses. All commands exit 0 on",
                  "success, 1 when a check fails or an input cannot be read, 2 on a usage error."]
        for n in notes { lines += ["", n] }
        return lines.joined(separator: "\n")
    }

    public func run(_ arguments: [String], output: (String) -> Void = Console.standardOutput,
                    errorOutput: (String) -> Void = Console.standardError) -> Int32 {
        guard let first = arguments.first else {
            errorOutput("\(name): missing command\n\(usageLine)\nrun '\(name) --help' for the commands\n")
            return CommandRunner.usageStatus
        }
        switch first {
        case "-h", "--help", "help":
            output(helpText + "\n")
            return 0
        case "--version":
            output("\(name) \(GuidedVersion.string)\n")
            return 0
        default:
            guard let command = subcommands.first(where: { $0.name == first }) else {
                let what = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'"
                errorOutput("\(name): \(what) (commands: \(subcommands.map(\.name).joined(separator: ", ")))\n\(usageLine)\nrun '\(name) --help' for the commands\n")
                return CommandRunner.usageStatus
            }
            return command.run(Array(arguments.dropFirst()))
        }
    }
}
