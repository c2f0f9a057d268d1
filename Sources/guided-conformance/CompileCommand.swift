import Foundation
import GuidedCLI
import GuidedDecoding

/// `guided-conformance compile SCHEMA [--property-order ORDER] [--draft NAME] [--refuse-ignored-keywords]
/// [--strict-formats]`: compiles one JSON Schema file the way a session would and says what the compiler
/// noticed: each keyword the schema's draft ignores (a typo such as `propertis`, a keyword of another
/// draft, a sibling of `$ref` in drafts 4-7), each format no draft defines or of another draft, each
/// draft-4 boolean schema, as a `warning:` line on standard error, then one line on standard output.
enum CompileCommand {
    static let spec = CommandSpec(
        name: "guided-conformance compile",
        summary: "Compile a JSON Schema file and report ignored keywords and formats (warnings) or why it is refused.",
        positionals: [PositionalSpec("SCHEMA", help: "a JSON Schema file")],
        options: [
            OptionSpec("--property-order", value: "ORDER", help: "object members: declared (default, as sessions generate) or sets (any order)"),
            OptionSpec("--draft", value: "NAME", help: "draft when the schema has no $schema: draft4, draft6, draft7, draft2019-09 or draft2020-12 (default)"),
            OptionSpec.flag("--refuse-ignored-keywords", help: "refuse the schema at its first ignored keyword instead of warning"),
            OptionSpec.flag("--strict-formats", help: "refuse formats no draft defines instead of warning and ignoring them"),
        ],
        exitCodes: [(0, "compiled (warnings, if any, on standard error)"),
                    (1, "SCHEMA could not be read or parsed, or the compiler refused it (the reason on standard error)"),
                    (2, "usage error: a bad option or value")],
        notes: ["Prints `compile: SCHEMA: N rules, W warnings` when the schema compiles."])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in
            var options = JSONSchemaCompileOptions()
            switch p.string("--property-order") {
            case nil, "declared": options.propertyOrder = .declared
            case "sets": options.propertyOrder = .memberSets
            case let v?: throw UsageError.badValue(v, for: "--property-order", expected: "declared or sets")
            }
            if let name = p.string("--draft") {
                guard let d = JSONSchemaDraft(suiteName: name) else {
                    throw UsageError.badValue(name, for: "--draft", expected: "one of " + JSONSchemaDraft.allCases.map(\.suiteName).joined(separator: ", "))
                }
                options.defaultDraft = d
            }
            if p.has("--refuse-ignored-keywords") { options.ignoredKeywords = .refuse }
            if p.has("--strict-formats") { options.unknownFormats = .refuse }
            let path = p.positionals[0]
            try InputError.requireFile(path)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            do {
                let result = try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(text), options: options)
                for w in result.warnings { Console.standardError("warning: \(w)\n") }
                let count = result.warnings.count
                print("compile: \(path): \(result.grammar.rules.count) rules, \(count) warning\(count == 1 ? "" : "s")")
                return 0
            } catch let error as JSONSchemaCompileError {
                Console.standardError("\(spec.name): \(path): \(error)\n")
                return 1
            } catch {
                Console.standardError("\(spec.name): \(path) is not JSON: \(error)\n")
                return 1
            }
        }
    }
}
