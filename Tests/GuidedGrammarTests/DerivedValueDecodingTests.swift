import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Everything the grammar of a derived schema allows decodes into the type it was derived from: random
/// walks of the grammar's own language (`GrammarSampler`, so every text is one the mask lets through),
/// each checked with the validator, decoded with `JSONValueDecoder` and with `JSONDecoder` under the
/// date strategy docs/guide.md recommends (`.rfc3339`). Found the lowercase `t`/`z` dates that
/// `ISO8601DateFormatter` refused (issue 26).
///
/// One gap is known and documented in docs/guide.md: the `number` grammar has no bounds, so a literal
/// beyond `Float`/`Double` (`1e999`) does not fit, and Foundation's `JSONDecoder` also refuses a zero with
/// an exponent (`0e8`) and literals that underflow (`1e-400`). Texts holding such a literal are counted
/// apart (`numberGaps`) and do not count towards the walks; every other text must decode.
@Suite struct DerivedValueDecodingTests {
    static let walks = 1_000

    /// Why each sampled text failed, empty when all decode; `distinct` counts different texts seen.
    struct Outcome {
        var failures: [String] = []
        var distinct = 0
        var numberGaps = 0
    }

    /// Whether `value` holds a number literal with an exponent that is outside `Float`'s normal range, or
    /// zero: the documented number gap (all Float-range values fit a Double too).
    static func hasNumberGap(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let n):
            guard n.text.contains(where: { $0 == "e" || $0 == "E" }) else { return false }
            let magnitude = abs(n.doubleValue)
            return !magnitude.isFinite || magnitude == 0 || magnitude < Double(Float.leastNormalMagnitude)
                || magnitude > Double(Float.greatestFiniteMagnitude)
        case .array(let items): return items.contains(where: hasNumberGap)
        case .object(let o): return o.entries.contains { hasNumberGap($0.1) }
        default: return false
        }
    }

    static func walk<T: GuidedGenerable>(_ type: T.Type, seed: UInt64) throws -> Outcome {
        let schema = try T.outputSchema.jsonSchema()
        let grammar = try JSONSchemaCompiler.compile(schema)
        let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .rfc3339
        let sampler = GrammarSampler(grammar)
        var rng = DifferentialGenerator(seed: seed)
        var outcome = Outcome()
        var seen = Set<String>()
        var attempts = 0
        while outcome.distinct < walks && attempts < 5 * walks {
            attempts += 1
            guard let bytes = sampler.sample(&rng), let text = String(bytes: bytes, encoding: .utf8) else {
                outcome.failures.append("sampler gave no UTF-8 text")
                continue
            }
            guard seen.insert(text).inserted else { continue }
            do {
                let value = try JSONParser.parse(text)
                if hasNumberGap(value) { outcome.numberGaps += 1; continue }
                outcome.distinct += 1
                if !validator.isValid(value) { outcome.failures.append("invalid: \(text)") }
                _ = try JSONValueDecoder().decode(T.self, from: value)
                _ = try foundation.decode(T.self, from: Data(text.utf8))
            } catch {
                outcome.failures.append("\(text): \(error)")
            }
        }
        return outcome
    }

    /// One row per derivation shape (DerivationShapes.swift), with the fewest distinct checked texts its
    /// walks must reach (so a sampler stuck on one value fails).
    static let shapes: [(name: String, minimumDistinct: Int, run: @Sendable (UInt64) throws -> Outcome)] = [
        ("Book", 1_000, { try walk(ShapeBook.self, seed: $0) }),
        ("Scalars", 1_000, { try walk(ShapeScalars.self, seed: $0) }),
        ("NarrowIntegers", 1_000, { try walk(ShapeNarrowIntegers.self, seed: $0) }),
        ("FoundationValues", 1_000, { try walk(ShapeFoundationValues.self, seed: $0) }),
        ("Collections", 1_000, { try walk(ShapeCollections.self, seed: $0) }),
        ("Enums", 6, { try walk(ShapeEnums.self, seed: $0) }),
        ("Nested", 1_000, { try walk(ShapeNested.self, seed: $0) }),
        ("Tree", 1_000, { try walk(ShapeTree.self, seed: $0) }),
        ("Renamed", 1_000, { try walk(ShapeRenamed.self, seed: $0) }),
        ("Declared", 1_000, { try walk(ShapeDeclared.self, seed: $0) }),
        ("Formats", 1_000, { try walk(ShapeFormats.self, seed: $0) }),
    ]

    @Test("every allowed value decodes", arguments: 0..<11)
    func allowedValuesDecode(_ index: Int) throws {
        let shape = Self.shapes[index]
        let outcome = try shape.run(UInt64(26 + index))
        #expect(outcome.failures.isEmpty, "\(shape.name): \(outcome.failures.count) failures, first \(outcome.failures.prefix(5))")
        #expect(outcome.distinct >= shape.minimumDistinct, "\(shape.name): only \(outcome.distinct) distinct texts")
    }

    /// The issue's own value: allowed by the `date-time` grammar, valid, and now decoded by both decoders.
    @Test func lowercaseSeparatorsDecode() throws {
        let text = #"{"created":"3320-11-19t16:03:56.3z","link":"a:","id":"123e4567-e89b-12d3-a456-426614174000"}"#
        let grammar = try JSONSchemaCompiler.compile(try ShapeFoundationValues.outputSchema.jsonSchema())
        #expect(JSONSchemaTestSupport.accepts(grammar, text))
        let expected = Date(timeIntervalSince1970: 42_629_817_836.3)
        let ours = try JSONValueDecoder().decode(ShapeFoundationValues.self, from: text)
        #expect(abs(ours.created.timeIntervalSince(expected)) < 1e-4)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .rfc3339
        let theirs = try foundation.decode(ShapeFoundationValues.self, from: Data(text.utf8))
        #expect(theirs.created == ours.created)
    }
}
