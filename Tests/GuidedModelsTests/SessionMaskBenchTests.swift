import Foundation
import GuidedModels
import GuidedSchema
import Testing
import GuidedTestSupport

/// A debug-sized slice of the session acceptance check (the full 50 schemas × 5 seeds runs in release:
/// `guided-conformance demo --maskbench ../shared/corpora/maskbench-dev`).
@Suite("SessionMaskBench", .enabled(if: SharedData.present(for: "SessionMaskBenchTests")))
struct SessionMaskBenchTests {
    /// The first `count` maskbench-dev schemas (name order) that the session compiles.
    static func schemas(_ count: Int, session: GuidedSession, options: DecodingOptions) async throws -> [(String, JSONValue)] {
        let dir = SharedData.path("corpora/maskbench-dev")
        var out: [(String, JSONValue)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: dir).filter({ $0.hasSuffix(".json") }).sorted() {
            if out.count == count { break }
            let text = try String(contentsOfFile: (dir as NSString).appendingPathComponent(file), encoding: .utf8)
            guard let schema = try JSONParser.parse(text)["schema"] else { continue }
            do {
                try await session.prewarm(schema: schema, options: options)
                out.append((file, schema))
            } catch GuidedSessionError.schemaRefused {
                continue
            }
        }
        return out
    }

    @Test func constrainedOutputsValidateUnconstrainedDoNot() async throws {
        let session = try SessionFixture.session
        var options = DecodingOptions(maximumResponseTokens: 200, includeSchemaInPrompt: false)
        let schemas = try await Self.schemas(3, session: session, options: options)
        #expect(schemas.count == 3)
        var completed = 0, freeValid = 0
        for (file, schema) in schemas {
            let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
            for seed in 1...2 as ClosedRange<UInt64> {
                options.seed = seed
                options.useMask = true
                do {
                    let r = try await session.respond(to: "Produce an instance.", schema: schema, options: options)
                    completed += 1
                    #expect(validator.validate(r.content) == [], "\(file) seed \(seed): \(r.rawText)")
                } catch GuidedSessionError.incompleteOutput(_, let partial, _, let n) {
                    #expect(n == 200)
                    _ = partial
                }
                options.useMask = false
                let free = try await session.decodeOutcome(to: "Produce an instance.", schema: schema, options: options)
                if let v = try? JSONParser.parse(free.text), validator.isValid(v) { freeValid += 1 }
            }
        }
        #expect(completed >= 3)
        #expect(freeValid == 0)
    }
}
