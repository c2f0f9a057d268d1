import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar
import GuidedTestSupport

/// Soundness sweep over the JSON Schema Test Suite: every schema is compiled; every test instance,
/// serialized compactly, is run through the reference recognizer. An invalid instance accepted is a
/// false positive, and there must be none. Valid instances accepted and refusals are counted and printed.
@Suite(.enabled(if: SharedData.present(for: "JSONSchemaSuiteSweepTests"))) struct JSONSchemaSuiteSweepTests {
    struct Tally {
        var groups = 0, refused = 0, compiled = 0, unchecked = 0, byMatcher = 0
        var validTotal = 0, validAccepted = 0, invalidTotal = 0, invalidRejected = 0
        var falsePositives: [String] = []
        var refusalsByKeyword: [String: Int] = [:]
    }

    static let drafts = ["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"]

    static func files(_ draft: String) -> [URL] {
        let dir = JSONSchemaTestSupport.sharedRoot.appendingPathComponent("corpora/json-schema-test-suite/tests/\(draft)")
        guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        return e.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    static func sweep(_ draftName: String, order: JSONSchemaCompileOptions.PropertyOrder? = nil) throws -> Tally {
        var t = Tally()
        let draft = JSONSchemaDraft(rawValue: draftName)!
        var options = JSONSchemaCompileOptions(whitespace: .compact, defaultDraft: draft)
        if let order { options.propertyOrder = order }
        for file in files(draftName) {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard case .array(let groups) = try JSONParser.parse(text) else { continue }
            for group in groups {
                guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                t.groups += 1
                let began = Date()
                defer {
                    let secs = Date().timeIntervalSince(began)
                    if secs > 2 { let d = group["description"]?.stringValue ?? ""; FileHandle.standardError.write(Data("jsts-sweep slow group (\(Int(secs)) s): \(file.lastPathComponent) / \(d)\n".utf8)) }
                }
                let grammar: Grammar
                do {
                    grammar = try JSONSchemaCompiler.compile(schema, options: options)
                } catch {
                    t.refused += 1
                    t.refusalsByKeyword[error.keyword.isEmpty ? "(\(error.kind.rawValue))" : error.keyword, default: 0] += 1
                    continue
                }
                t.compiled += 1
                // The reference recognizer, or the matcher for member sets; a grammar neither takes
                // (a repeat past the recognizer's bound) is counted, not checked.
                guard let oracle = try? GrammarMembership.Oracle(answering: grammar) else { t.unchecked += 1; continue }
                if oracle.kind == "matcher" { t.byMatcher += 1 }
                for test in tests {
                    guard let data = test["data"], case .bool(let valid)? = test["valid"] else { continue }
                    let accepted = oracle.accepts(data.serialized(.compact))
                    if valid {
                        t.validTotal += 1
                        if accepted { t.validAccepted += 1 }
                    } else {
                        t.invalidTotal += 1
                        if accepted {
                            t.falsePositives.append("\(file.lastPathComponent): \(group["description"]?.stringValue ?? "") / \(test["description"]?.stringValue ?? "") : \(data.serialized(.compact))")
                        } else { t.invalidRejected += 1 }
                    }
                }
            }
        }
        return t
    }

    @Test(arguments: drafts)
    func noInvalidInstanceAccepted(_ draft: String) throws {
        let t = try JSONSchemaSuiteSweepTests.sweep(draft)
        let top = t.refusalsByKeyword.sorted { $0.value > $1.value }.prefix(8).map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        print("jsts-sweep \(draft): groups \(t.groups), compiled \(t.compiled), refused \(t.refused); valid accepted \(t.validAccepted)/\(t.validTotal); invalid rejected \(t.invalidRejected)/\(t.invalidTotal); false positives \(t.falsePositives.count); refusals: \(top)")
        for fp in t.falsePositives { print("FALSE POSITIVE \(draft): \(fp)") }
        #expect(t.groups > 0)
        #expect(t.falsePositives.isEmpty)
    }

    /// The same sweep in member-set order (what `guided-conformance` measures by default): objects take
    /// their members in any order, each at most once, and the matcher answers for those grammars.
    @Test(arguments: drafts)
    func noInvalidInstanceAcceptedUnderMemberSets(_ draft: String) throws {
        let t = try JSONSchemaSuiteSweepTests.sweep(draft, order: .memberSets)
        print("jsts-sweep member sets \(draft): groups \(t.groups), compiled \(t.compiled) (\(t.byMatcher) by the matcher, \(t.unchecked) unchecked), refused \(t.refused); valid accepted \(t.validAccepted)/\(t.validTotal); invalid rejected \(t.invalidRejected)/\(t.invalidTotal); false positives \(t.falsePositives.count)")
        for fp in t.falsePositives { print("FALSE POSITIVE member sets \(draft): \(fp)") }
        #expect(t.byMatcher > 0)
        #expect(t.falsePositives.isEmpty)
    }
}
