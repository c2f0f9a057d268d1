import Foundation
import GuidedSchema

/// The `schema-check` program: parses the command line, runs the battery, prints the report.
///
/// Output: the report on `output` (stdout), its last line exactly `verdict: <…> (<k>/<n> probes enforced)`;
/// progress on `errorOutput` only when `progressToTerminal` (stderr is a TTY); `--json FILE` writes the
/// machine-readable report. Exit status 0 strict, 1 not strict, 2 could not probe (usage error, unreadable
/// probes, server unreachable or refusing a plain request): then no verdict line, only the reason on stderr.
public enum SchemaCheckCommand {
    public static func run(_ arguments: [String], defaultProbes: URL?, output: @Sendable (String) -> Void,
                           errorOutput: @Sendable (String) -> Void, progressToTerminal: Bool,
                           environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        do throws(SchemaCheckError) {
            let options = try SchemaCheckOptions.parse(arguments)
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
            return 2
        }
    }
}
