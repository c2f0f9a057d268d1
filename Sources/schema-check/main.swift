// schema-check: measures how strictly an OpenAI-compatible server enforces JSON Schema output.
// Options are parsed by GuidedCLI from `spec` (also what `--help` prints); the probing itself lives in
// GuidedModels (SchemaCheckCommand), where it is tested.
import Foundation
import GuidedCLI
import GuidedDecoding

/// The battery: ./Corpora/probes when run from a checkout, else the one next to these sources.
let defaultProbes: URL? = {
    let candidates = [
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Corpora/probes"),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/probes"),
    ]
    return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
}()

let spec = CommandSpec(
    name: "schema-check",
    summary: "Probes how strictly an OpenAI-compatible server enforces a JSON Schema on its output.",
    options: [
        OptionSpec("--base-url", value: "URL", help: "the server's OpenAI-compatible base, e.g. http://127.0.0.1:8000/v1 (required)"),
        OptionSpec("--model", value: "NAME", help: "model name sent in each request (required)"),
        OptionSpec("--dialect", value: "NAME", help: "structured-output form: \(SchemaCheckOptions.dialects.map(\.name).joined(separator: ", ")) (default auto: try each, report the best)"),
        OptionSpec("--api-key-env", value: "VAR", help: "environment variable holding the API key (sent as a bearer token)"),
        OptionSpec("--trials", value: "N", help: "requests per probe, 1 to 1000 (default 2)"),
        OptionSpec("--probes", value: "DIR", help: "probe battery folder (default Corpora/probes of the repository)"),
        OptionSpec("--json", value: "FILE", help: "also write the machine-readable report to FILE"),
        OptionSpec.flag("--tools", help: "also probe tool calls: strict tool arguments, tool_choice required and named"),
        OptionSpec.flag("--grammar", help: "send our own compiled grammar of each probe (GBNF for llama.cpp, EBNF for vLLM) instead of the schema"),
    ],
    exitCodes: [(0, "strict: every probe was enforced"),
                (1, "not strict: best-effort or not enforced (the last line says which)"),
                (2, "usage error, or the probe battery or --json file could not be read or written"),
                (3, "could not reach the server, or it refused even a plain request")],
    notes: ["The report's last line reads `verdict: <strict|best-effort|not-enforced> (<k>/<n> probes enforced)`."])

/// The options in the library's form; bad values name the option and what it needs.
func schemaCheckOptions(_ p: ParsedArguments) throws(UsageError) -> SchemaCheckOptions {
    let base = try p.required("--base-url")
    guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
          url.host != nil
    else { throw .badValue(base, for: "--base-url", expected: "an http(s) URL") }
    let model = try p.required("--model")
    guard !model.isEmpty else { throw .badValue(model, for: "--model", expected: "a model name") }
    let dialectName = try p.choice("--dialect", of: SchemaCheckOptions.dialects.map(\.name)) ?? "auto"
    let dialect = SchemaCheckOptions.dialects.first { $0.name == dialectName }?.dialect
    if p.has("--grammar"), let dialect, dialect.grammarFormat == nil {
        throw .badValue(dialectName, for: "--dialect", expected: "a dialect whose server takes grammars with --grammar: llama-cpp-python, vllm or llamacpp")
    }
    return SchemaCheckOptions(baseURL: url, model: model, dialect: dialect,
                              apiKeyEnvironmentVariable: p.string("--api-key-env"),
                              trials: try p.int("--trials", in: 1...1000) ?? 2,
                              probesDirectory: p.string("--probes").map { URL(fileURLWithPath: $0) },
                              jsonPath: p.string("--json"), tools: p.has("--tools"), grammar: p.has("--grammar"))
}

/// Parsed options, or the exit status after help, version or a usage error (printed).
func parseCommandLine() -> Result<SchemaCheckOptions, ExitNow> {
    switch CommandRunner.parse(Array(CommandLine.arguments.dropFirst()), spec: spec) {
    case .exit(let status): return .failure(ExitNow(status: status))
    case .run(let p):
        do {
            let options = try schemaCheckOptions(p)
            if let dir = options.probesDirectory { try InputError.requireDirectory(dir.path) }
            return .success(options)
        } catch let error as UsageError {
            Console.standardError(CommandRunner.usageMessage(error, spec: spec))
        } catch {
            Console.standardError("schema-check: \(ErrorText.describe(error))\n")
        }
        return .failure(ExitNow(status: CommandRunner.usageStatus))
    }
}

struct ExitNow: Error { let status: Int32 }

switch parseCommandLine() {
case .failure(let stop):
    exit(stop.status)
case .success(let options):
    exit(await SchemaCheckCommand.run(
        options: options, defaultProbes: defaultProbes,
        output: { FileHandle.standardOutput.write(Data($0.utf8)) },
        errorOutput: { FileHandle.standardError.write(Data($0.utf8)) },
        progressToTerminal: isatty(STDERR_FILENO) != 0))
}
