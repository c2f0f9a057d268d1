// guided-conformance: conformance corpora and benchmarks for GuidedDecoding.
// Each subcommand lives in its own file as `enum XCommand { static func run(_ args: [String]) -> Int32 }`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
usage: guided-conformance <command> [options]

commands:
  tokenize        encode fixture texts with a vocabulary and compare to reference ids
  bench           token-by-token mask benchmark of a grammar over a texts file
  jsts            JSON Schema Test Suite through the grammar engine
  maskbench       MaskBench protocol over a directory of schema files
  validate-suite  JSON Schema Test Suite through the validator
  demo            generate typed values with the n-gram backend, with and without the mask
  session-bench   overhead of the session decode loop beyond the backend's own time

With no command, runs the default job: the demo (5 recipe cards from the n-gram backend, Qwen2 vocabulary).
"""

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty {
    arguments = DefaultJob.arguments
}
let command = arguments.removeFirst()
let status: Int32
switch command {
case "tokenize": status = TokenizeCommand.run(arguments)
case "bench": status = BenchCommand.run(arguments)
case "jsts": status = JSTSCommand.run(arguments)
case "maskbench": status = MaskBenchCommand.run(arguments)
case "validate-suite": status = ValidateSuiteCommand.run(arguments)
case "demo": status = DemoCommand.run(arguments)
case "session-bench": status = SessionBenchCommand.run(arguments)
case "-h", "--help", "help": print(usage); status = 0
default:
    FileHandleOutput.standardError("guided-conformance: unknown command '\(command)'\n\n\(usage)\n")
    status = 2
}
exit(status)
