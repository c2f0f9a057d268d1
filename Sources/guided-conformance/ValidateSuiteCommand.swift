import Foundation
import GuidedSchema

/// `guided-conformance validate-suite DIR [--draft NAME]... [--failures]`: the JSON Schema Test Suite
/// through `JSONSchemaValidator`.
///
/// DIR is the suite's `tests/` folder. Each draft folder is validated with that draft's semantics; files
/// under `optional/` are counted apart (with `format` asserted for `optional/format/`). Remote `$ref`s are
/// resolved from `remotes/` beside `tests/`, served as `http://localhost:1234/`; nothing is fetched.
/// Prints a line per draft, then `validate-suite: required <passed>/<total> passed; optional <passed>/<total> passed`.
enum ValidateSuiteCommand {
    static let usage = "usage: guided-conformance validate-suite DIR [--draft NAME]... [--failures]"

    static func run(_ args: [String]) -> Int32 {
        var directory: String?
        var drafts: [JSONSchemaDraft] = []
        var showFailures = false
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--draft":
                guard i + 1 < args.count else { return fail("--draft needs a name") }
                guard let d = JSONSchemaDraft(suiteName: args[i + 1]) else {
                    return fail("unknown draft '\(args[i + 1])' (known: \(JSONSchemaDraft.allCases.map(\.suiteName).joined(separator: ", ")))")
                }
                drafts.append(d)
                i += 2
            case "--failures":
                showFailures = true
                i += 1
            case let a where a.hasPrefix("-"):
                return fail("unknown option '\(a)'")
            default:
                guard directory == nil else { return fail("more than one DIR given") }
                directory = args[i]
                i += 1
            }
        }
        guard let directory else { return fail("missing DIR") }
        let testsURL = URL(fileURLWithPath: directory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: testsURL.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return fail("\(directory) is not a directory")
        }
        if drafts.isEmpty {
            drafts = JSONSchemaDraft.allCases.filter {
                FileManager.default.fileExists(atPath: testsURL.appendingPathComponent($0.suiteName).path)
            }
            guard !drafts.isEmpty else { return fail("no draft folders (draft4 ... draft2020-12) in \(directory)") }
        }
        let remotes = testsURL.deletingLastPathComponent().appendingPathComponent("remotes").path
        var total = ValidateSuiteTally()
        for draft in drafts {
            let draftURL = testsURL.appendingPathComponent(draft.suiteName)
            do {
                let tally = try ValidateSuiteRunner(draft: draft, remotes: remotes).run(folder: draftURL) { failure in
                    if showFailures { print("  FAIL \(failure)") }
                }
                print("\(draft.suiteName): \(tally.summary)")
                total.add(tally)
            } catch {
                return fail("\(error)")
            }
        }
        print("validate-suite: \(total.summary)")
        return 0
    }

    static func fail(_ message: String) -> Int32 {
        FileHandleOutput.standardError("validate-suite: \(message)\n\(usage)\n")
        return 2
    }
}
