import Foundation
import Testing
@testable import GuidedSchema

/// The validator against the valid/invalid labels of the shared MaskBench sample (10,906 instances):
/// a cross-check of the validator on real-world schemas, labelled by another implementation. Slow in a
/// debug build (about 45 s of CPU), so it runs only when `GUIDED_VALIDATOR_MASKBENCH=1` is set.
@Suite struct ValidatorMaskBenchTests {
    static let enabled = ProcessInfo.processInfo.environment["GUIDED_VALIDATOR_MASKBENCH"] == "1"

    /// The only disagreements: instances whose schema `$ref`s the draft-04 meta-schema, which is not
    /// bundled, so the reference fails closed.
    static let expectedDisagreements = ["JsonSchemaStore---swagger-2.0.json", "JsonSchemaStore---swagger-2.0.json"]

    @Test(.enabled(if: enabled)) func agreesWithTheLabels() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora/maskbench-dev")
        var total = 0
        var disagreements: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".json") {
            let document = try JSONParser.parse(bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(file))))
            guard let schema = document["schema"] else { continue }
            let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
            for test in document["tests"]?.arrayValue ?? [] {
                total += 1
                if validator.isValid(test["data"]!) != test["valid"]?.boolValue { disagreements.append(file) }
            }
        }
        #expect(total == 10_906)
        #expect(disagreements == Self.expectedDisagreements)
    }
}
