import Foundation
import GuidedDecoding

/// `demo --maskbench DIR`: the session acceptance check over real-world schemas. Takes the schema files of
/// DIR in name order, keeps the first `--schemas` that compile against the vocabulary, and generates
/// `--seeds` values for each with the mask (every completed one must validate) and without (reported).
enum DemoMaskBench {
    static func run(session: GuidedSession, directory: String, options: DemoOptions) throws -> Int32 {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        var checked = 0, refused = 0
        var completed = 0, valid = 0, incomplete = 0, freeValid = 0, freeTotal = 0
        var invalid: [String] = []
        let start = Date()
        for file in files where checked < options.schemas {
            let path = (directory as NSString).appendingPathComponent(file)
            guard let data = FileManager.default.contents(atPath: path),
                  let doc = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
                  let schema = doc["schema"] else { continue }
            let base = DecodingOptions(maximumResponseTokens: options.maxTokens, includeSchemaInPrompt: false)
            do {
                try DemoBlocking.run { try await session.prewarm(schema: schema, options: base) }
                _ = try DemoBlocking.run { try await session.decodeOutcome(to: "x", schema: schema,
                                                                           options: DecodingOptions(maximumResponseTokens: 1, includeSchemaInPrompt: false)) }
            } catch GuidedSessionError.incompleteOutput {
                // compiled fine; one token was not enough, as expected
            } catch {
                refused += 1
                continue
            }
            checked += 1
            let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
            var line = ""
            for s in 0..<options.seeds {
                var o = base
                o.seed = options.seed &+ UInt64(s)
                do {
                    let r = try DemoBlocking.run { [o] in try await session.respond(to: "Produce an instance.", schema: schema, options: o) }
                    completed += 1
                    if validator.isValid(r.content) { valid += 1; line += "v" } else {
                        line += "X"
                        invalid.append("\(file) seed \(o.seed): \(demoShort(r.rawText, 300))")
                    }
                } catch GuidedSessionError.incompleteOutput {
                    incomplete += 1
                    line += "."
                }
                o.useMask = false
                let free = try DemoBlocking.run { [o] in try await session.decodeOutcome(to: "Produce an instance.", schema: schema, options: o) }
                freeTotal += 1
                if demoIsValid(free.text, validator) { freeValid += 1 }
            }
            print("  \(file): \(line)")
        }
        for x in invalid { print("INVALID \(x)") }
        print("(\(refused) schemas refused by the compiler were skipped; \(Int(Date().timeIntervalSince(start))) s; v valid, X invalid, . budget of \(options.maxTokens) tokens ran out)")
        print("demo-maskbench: \(checked) schemas x \(options.seeds) seeds, with mask \(valid)/\(completed) completed outputs valid (\(incomplete) incomplete), without mask \(freeValid)/\(freeTotal) valid")
        return invalid.isEmpty ? 0 : 1
    }
}
