import Foundation

/// Runs one command: `--help` to stdout (exit 0), `--version` to stdout (exit 0), a usage error to stderr
/// with the usage line and a pointer to `--help` (exit 2), any other error in words on stderr (exit 1).
public enum CommandRunner {
    public static let usageStatus: Int32 = 2
    public static let failureStatus: Int32 = 1

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

    /// What a command line comes to before an async body runs: arguments to run with, or a status to exit
    /// with now (help or version printed, or a usage error reported).
    public enum Parsed {
        case run(ParsedArguments)
        case exit(Int32)
    }

    /// `run` without the body, for commands whose work is async (schema-check).
    public static func parse(_ arguments: [String], spec: CommandSpec, output: (String) -> Void = Console.standardOutput,
                             errorOutput: (String) -> Void = Console.standardError) -> Parsed {
        var parsed: ParsedArguments?
        let status = run(arguments, spec: spec, output: output, errorOutput: errorOutput) { p in parsed = p; return 0 }
        return parsed.map { .run($0) } ?? .exit(status)
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
