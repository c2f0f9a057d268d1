import Foundation
import GuidedCLI
import GuidedSchema

/// `guided-conformance validate-suite DIR [--draft NAME]... [--failures]`: the JSON Schema Test Suite
/// through `JSONSchemaValidator`.
///
/// DIR is the suite's `tests/` folder. Each draft folder is validated with that draft's semantics; files
/// under `optional/` are counted apart (with `format` asserted for `optional/format/`). Remote `$ref`s are
/// resolved from `remotes/` beside `tests/`, served as `http://localhost:1234/`; nothing is fetched.
/// Prints a line per draft, then `validate-suite: required <passed>/<total> passed; optional <passed>/<total> passed`.
enum ValidateSuiteCommand {
    static let spec = CommandSpec(
        name: "guided-conformance validate-suite",
        summary: "The JSON Schema Test Suite through the validator (JSONSchemaValidator).",
        positionals: [PositionalSpec("DIR", help: "the suite's tests/ folder; remote $refs are served from remotes/ beside it")],
        options: [OptionSpec("--draft", value: "NAME", help: "only this draft, e.g. draft7 (default: every draft folder present)", repeats: true),
                  OptionSpec.flag("--failures", help: "print each failing test")],
        exitCodes: [(0, "the suite ran (the last line counts what passed)"),
                    (1, "DIR or a test file could not be read or parsed"),
                    (2, "usage error: a bad option or value, or DIR holds no draft folder")])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in
            var drafts: [JSONSchemaDraft] = []
            for name in p.strings("--draft") {
                guard let d = JSONSchemaDraft(suiteName: name) else {
                    throw UsageError.badValue(name, for: "--draft", expected: "one of " + JSONSchemaDraft.allCases.map(\.suiteName).joined(separator: ", "))
                }
                drafts.append(d)
            }
            return try validate(directory: p.positionals[0], drafts: drafts, showFailures: p.has("--failures"))
        }
    }

    private static func validate(directory: String, drafts: [JSONSchemaDraft], showFailures: Bool) throws -> Int32 {
        var drafts = drafts
        try InputError.requireDirectory(directory)
        let testsURL = URL(fileURLWithPath: directory)
        if drafts.isEmpty {
            drafts = JSONSchemaDraft.allCases.filter {
                FileManager.default.fileExists(atPath: testsURL.appendingPathComponent($0.suiteName).path)
            }
            guard !drafts.isEmpty else { throw UsageError("no draft folders (draft4 ... draft2020-12) in \(directory)") }
        }
        let remotes = testsURL.deletingLastPathComponent().appendingPathComponent("remotes").path
        var total = ValidateSuiteTally()
        for draft in drafts {
            let draftURL = testsURL.appendingPathComponent(draft.suiteName)
            let tally = try ValidateSuiteRunner(draft: draft, remotes: remotes).run(folder: draftURL) { failure in
                if showFailures { print("  FAIL \(failure)") }
            }
            print("\(draft.suiteName): \(tally.summary)")
            total.add(tally)
        }
        print("validate-suite: \(total.summary)")
        return 0
    }
}
