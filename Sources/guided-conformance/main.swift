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

With no command, runs the default job: tokenize the shared Qwen2 fixtures.
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
case "-h", "--help", "help": print(usage); status = 0
default:
    FileHandleOutput.standardError("guided-conformance: unknown command '\(command)'\n\n\(usage)\n")
    status = 2
}
exit(status)
