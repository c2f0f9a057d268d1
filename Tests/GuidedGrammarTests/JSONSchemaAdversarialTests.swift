import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar

/// The adversarial schemas of Corpora/adversarial compile within the compiler's bounds or are refused
/// with an error naming the keyword: never a crash or a hang (every step is bounded by `Limits`).
@Suite struct JSONSchemaAdversarialTests {
    static let folder = JSONSchemaTestSupport.projectRoot.appendingPathComponent("Corpora/adversarial")

    /// Expected outcome per file: nil = compiles, otherwise the keyword of the refusal.
    static let expected: [String: String?] = [
        "deep-nesting.json": nil,
        "deep-arrays.json": nil,
        "huge-enum.json": nil,
        "huge-enum-objects.json": nil,
        "tools-500-anyof.json": nil,
        "tools-500-oneof.json": nil,
        "oneof-overlapping.json": "oneOf",
        "anyof-product.json": "anyOf",
        "ref-chain.json": nil,
        "ref-cycle.json": "$ref",
        "recursive-tree.json": nil,
        "multipleof-huge.json": "multipleOf",
        "decimal-range-tight.json": nil,
        "pattern-blowup.json": nil,
        "many-properties.json": "properties",
    ]

    @Test(arguments: expected.keys.sorted())
    func compilesOrRefusesClearly(_ name: String) throws {
        let text = try String(contentsOf: JSONSchemaAdversarialTests.folder.appendingPathComponent(name), encoding: .utf8)
        let schema = try JSONParser.parse(text)
        do {
            let g = try JSONSchemaCompiler.compile(schema)
            #expect(JSONSchemaAdversarialTests.expected[name]! == nil, "\(name) compiled (\(g.rules.count) rules) but a refusal was expected")
        } catch {
            #expect(error.keyword == JSONSchemaAdversarialTests.expected[name]!, "\(name): \(error)")
            #expect(error.description.contains("'\(error.keyword)'"))
        }
    }

    @Test func everyCorpusFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: JSONSchemaAdversarialTests.folder.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(JSONSchemaAdversarialTests.expected.keys))
    }
}
