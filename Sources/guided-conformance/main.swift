// guided-conformance: the demo, conformance corpora and benchmarks for GuidedDecoding.
// Each subcommand lives in its own file as `enum XCommand { static let spec; static func run(_:) -> Int32 }`;
// options are parsed by GuidedCLI from the spec, which is also what `--help` prints.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GuidedCLI

let tool = CommandGroup(
    name: "guided-conformance",
    summary: "The GuidedDecoding demo, conformance corpora and benchmarks.",
    subcommands: [
        .init("demo", "generate typed values with the n-gram backend, with and without the mask", run: DemoCommand.run),
        .init("tokenize", "encode fixture texts with a vocabulary and compare to reference ids", run: TokenizeCommand.run),
        .init("bench", "token-by-token mask benchmark of a grammar over a texts file", run: BenchCommand.run),
        .init("jsts", "JSON Schema Test Suite through the grammar engine", run: JSTSCommand.run),
        .init("maskbench", "MaskBench protocol over a directory of schema files", run: MaskBenchCommand.run),
        .init("sample", "draw valid instances for MaskBench files without tests (the stress corpus)", run: SampleCommand.run),
        .init("compile", "compile a JSON Schema file; report ignored keywords or why it is refused", run: CompileCommand.run),
        .init("validate-suite", "JSON Schema Test Suite through the validator", run: ValidateSuiteCommand.run),
        .init("session-bench", "overhead of the session decode loop beyond the backend's own time", run: SessionBenchCommand.run),
        .init("tools-bench", "mask cost in free text, behind a tool-call trigger and in reasoning", run: ToolsBenchCommand.run),
        .init("export-roundtrip", "schemas compiled, exported as GBNF, EBNF and Lark, read back and compared", run: ExportRoundTripCommand.run),
    ],
    notes: ["With no command, runs the default job: `\(DefaultJob.arguments.joined(separator: " "))` (5 recipe cards "
            + "from the n-gram backend over the built-in vocabulary, \(RepositoryFile.builtInVocabulary))."])

let arguments = Array(CommandLine.arguments.dropFirst())
exit(tool.run(arguments.isEmpty ? DefaultJob.arguments : arguments))
