import Foundation
import GuidedSchema

/// The `schema-check` program: parses the command line, runs the battery, prints the report.
///
/// Output: the report on `output` (stdout), its last line exactly `verdict: <…> (<k>/<n> probes enforced)`;
/// progress on `errorOutput` only when `progressToTerminal` (stderr is a TTY); `--json FILE` writes the
/// machine-readable report. Exit status 0 strict, 1 not strict, 2 usage error or unreadable probes, 3 could
/// not reach the server (unreachable or refusing a plain request): then no verdict line, only the reason on
/// stderr.
public enum SchemaCheckCommand {
    /// Exit status when the server could not be reached or refused even a plain request.
    public static let unreachableStatus: Int32 = 3

    public static func run(_ arguments: [String], defaultProbes: URL?, output: @Sendable (String) -> Void,
                           errorOutput: @Sendable (String) -> Void, progressToTerminal: Bool,
                           environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        let options: SchemaCheckOptions
        do throws(SchemaCheckError) { options = try SchemaCheckOptions.parse(arguments) } catch {
            errorOutput("schema-check: \(error)\n")
            return 2
        }
        return await run(options: options, defaultProbes: defaultProbes, output: output, errorOutput: errorOutput,
                         progressToTerminal: progressToTerminal, environment: environment)
    }

    /// Runs the battery with options already parsed (the `schema-check` executable parses with GuidedCLI).
    public static func run(options: SchemaCheckOptions, defaultProbes: URL?, output: @Sendable (String) -> Void,
                           errorOutput: @Sendable (String) -> Void, progressToTerminal: Bool,
                           environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        do throws(SchemaCheckError) {
            guard let directory = options.probesDirectory ?? defaultProbes else {
                throw .probes("no probe directory: pass --probes DIR (the battery is Corpora/probes in the repository)")
            }
            let probes = try SchemaCheckProbe.load(directory: directory)
            let runner = SchemaCheckRunner(options: options, probes: probes, environment: environment)
            let report = try await runner.run(progress: { line in
                if progressToTerminal { errorOutput("\r\u{1B}[K" + line) }
            })
            if progressToTerminal { errorOutput("\r\u{1B}[K") }
            if let path = options.jsonPath {
                let text = report.json.serialized(.indented(2)) + "\n"
                guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                    errorOutput("schema-check: cannot write \(path)\n")
                    output(report.text + "\n")
                    return 2
                }
            }
            output(report.text + "\n")
            return report.exitStatus
        } catch {
            errorOutput("schema-check: \(error)\n")
            if case .unreachable = error { return unreachableStatus }
            return 2
        }
    }
}
