import Foundation

/// Runs one command: `--help` to stdout (exit 0), `--version` to stdout (exit 0), a usage error to stderr
/// with the usage line and a pointer to `--help` (exit 2), any other error in words on stderr (exit 1).
public enum CommandRunner {
    public static let usageStatus: Int32 = 2
    public static let failureStatus: Int32 = 1

    /// The exit statuses of commands that check something: 0, 1 and 2 as above.
    public static let standardExitCodes: [(code: Int32, meaning: String)] = [
        (0, "success: every check passed"),
        (1, "a check failed, or an input could not be read or used"),
        (2, "usage error: a bad option or value (nothing was run)"),
    ]

    public static func run(_ arguments: [String], spec: CommandSpec, output: (String) -> Void = Console.standardOutput,
                           errorOutput: (String) -> Void = Console.standardError,
                           body: (ParsedArguments) throws -> Int32) -> Int32 {
        do {
            switch try ArgumentParser.parse(arguments, spec: spec) {
            case .help:
                output(spec.helpText + "\n")
                return 0
            case .version:
                output("\(spec.name.split(separator: " ").first ?? "") \(GuidedVersion.string)\n")
                return 0
            case .run(let parsed):
                return try body(parsed)
            }
        } catch let error as UsageError {
            errorOutput(usageMessage(error, spec: spec))
            return usageStatus
        } catch {
            errorOutput("\(spec.name): \(ErrorText.describe(error))\n")
            return failureStatus
        }
    }

    /// `NAME: MESSAGE`, then the usage line and where the full help is.
    public static func usageMessage(_ error: UsageError, spec: CommandSpec) -> String {
        "\(spec.name): \(error.message)\n\(spec.usageLine)\nrun '\(spec.name) --help' for every option\n"
    }
}

/// Writing to the standard streams.
public enum Console {
    public static func standardOutput(_ s: String) {
        FileHandle.standardOutput.write(Data(s.utf8))
    }

    public static func standardError(_ s: String) {
        FileHandle.standardError.write(Data(s.utf8))
    }
}
