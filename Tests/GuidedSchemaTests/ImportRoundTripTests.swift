import Foundation
import Testing
@testable import GuidedSchema
import GuidedTestSupport

/// The JSON Schema Test Suite beside the project (../shared/corpora/json-schema-test-suite), located from
/// this file's path, never an absolute one.
enum SchemaSuiteData {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let suiteTests = projectRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/corpora/json-schema-test-suite/tests")

    /// Every group's schema in one draft folder (not `optional/`), with "file: group" labels.
    static func schemas(draft: String) throws -> [(label: String, schema: JSONValue)] {
        let folder = suiteTests.appendingPathComponent(draft)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var result: [(String, JSONValue)] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            guard case .array(let groups) = try JSONParser.parse(text) else { continue }
            for group in groups {
                guard let schema = group["schema"] else { continue }
                result.append(("\(file): \(group["description"]?.stringValue ?? "?")", schema))
            }
        }
        return result
    }
}

@Suite("Import, export, import on the JSON Schema Test Suite", .enabled(if: SharedData.present(for: "ImportRoundTripTests")))
struct ImportRoundTripTests {
    /// Per draft: (folder, draft, representable groups, refused groups). Pinned so a change in what the
    /// schema type holds is noticed.
    static let drafts: [(String, JSONSchemaDraft, Int, Int)] = [
        ("draft2020-12", .draft2020_12, 56, 327),
        ("draft2019-09", .draft2019_09, 55, 317),
        ("draft7", .draft7, 51, 206),
        ("draft6", .draft6, 51, 181),
        ("draft4", .draft4, 34, 126),
    ]

    @Test("import → export(standard) → import is identity, or refused naming a keyword", arguments: 0..<5)
    func roundTrip(_ index: Int) throws {
        let (folder, draft, expectedRepresentable, expectedRefused) = ImportRoundTripTests.drafts[index]
        let schemas = try SchemaSuiteData.schemas(draft: folder)
        #expect(!schemas.isEmpty)
        var representable = 0, refused = 0
        var refusedKeywords: [String: Int] = [:]
        for (label, json) in schemas {
            let imported: OutputSchema
            do {
                imported = try OutputSchema(jsonSchema: json, draft: draft)
            } catch {
                refused += 1
                let keyword = error.keyword ?? ""
                #expect(!keyword.isEmpty, "\(label): refused without naming a keyword: \(error)")
                if case .invalidSchema = error { Issue.record("\(label): suite schema judged invalid: \(error)") }
                refusedKeywords[keyword, default: 0] += 1
                if ProcessInfo.processInfo.environment["SCHEMA_SUITE_VERBOSE"] != nil { print("refused \(label): \(error)") }
                continue
            }
            representable += 1
            let exported = try imported.jsonSchema()
            let again = try OutputSchema(jsonSchema: exported)
            #expect(again == imported, "\(label): \(json.serialized()) → \(exported.serialized())")
        }
        let summary = refusedKeywords.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("\(folder): \(representable) representable, \(refused) refused (\(summary))")
        #expect(representable == expectedRepresentable, "\(folder) representable")
        #expect(refused == expectedRefused, "\(folder) refused")
    }
}

@Suite("Import robustness", .enabled(if: SharedData.present(for: "Import robustness")))
struct ImportRobustnessTests {
    /// Every JSON value in the 2020-12 suite files (schemas, their subschemas, and the test instances) used
    /// as a schema: it imports or is refused with an error that names a keyword or says why; whatever
    /// imports exports in every dialect or lists violations. Nothing traps.
    @Test func everyValueInTheSuiteImportsOrIsRefused() throws {
        let folder = SchemaSuiteData.suiteTests.appendingPathComponent("draft2020-12")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        var values: [JSONValue] = []
        func collect(_ v: JSONValue) {
            values.append(v)
            switch v {
            case .array(let items): items.forEach(collect)
            case .object(let o): o.entries.forEach { collect($0.value) }
            default: break
            }
        }
        for file in files {
            collect(try JSONParser.parse(String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)))
        }
        var imported = 0, refused = 0
        for value in values {
            do {
                let schema = try OutputSchema(jsonSchema: value)
                imported += 1
                for dialect in SchemaDialect.allCases { _ = try schema.dialectViolations(for: dialect) }
            } catch let error as SchemaError {
                refused += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(values.count > 5_000)
        #expect(imported + refused == values.count)
        #expect(imported > 0 && refused > 0)
    }
}
