import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Numbers in schemas whose plain spelling is enormous (`1e999999999`) are measured from their digit
/// count and exponent before anything is built: each schema here compiles or is refused with a typed
/// error. (Found by fuzzing: these trapped, or allocated gigabytes for a minute first. Their time and
/// memory are measured, in a release build, by `guided-fuzz --time` in docs/reliability.md, and CI
/// replays the inputs under a time limit: no timing here.)
@Suite struct HugeNumberLiteralTests {
    struct Bound: Sendable, CustomTestStringConvertible {
        let schema: String
        let keyword: String
        var testDescription: String { schema }
    }

    /// Range bounds whose plain spelling has more digits than the number automaton has states.
    static let tooLongBounds: [Bound] = [
        Bound(schema: #"{"minimum":1e999999999}"#, keyword: "minimum"),
        Bound(schema: #"{"exclusiveMinimum":1e999999999}"#, keyword: "exclusiveMinimum"),
        Bound(schema: #"{"maximum":1e999999999}"#, keyword: "maximum"),
        Bound(schema: #"{"exclusiveMaximum":-1e-999999999}"#, keyword: "exclusiveMaximum"),
        Bound(schema: #"{"minimum":-1e-999999999}"#, keyword: "minimum"),
        Bound(schema: #"{"type":"integer","maximum":1e30000}"#, keyword: "maximum"),
    ]

    /// A `maxLength` past `Int` beside a pattern is clamped, and its product size (the content's states
    /// times the bound plus one) no longer overflows: the bound passes what the matcher counts, so the
    /// schema is refused, naming `maxLength`, alone and as an `anyOf` branch (where the fuzzer found the
    /// trap: Fuzz/regressions/schema/max-length-5e999999999-beside-pattern). A bound it can count, far past
    /// the product's limit, is counted and exact.
    @Test func hugeMaxLengthBesidePatternIsRefusedOrCounted() throws {
        let schema = #"{"type":"string","pattern":"^x","maxLength":51e999999999}"#
        let union = #"{"anyOf":[{"type":"string","format":"email","maxLength":12},"# + schema + "]}"
        for s in [schema, union] {
            let e = JSONSchemaTestSupport.error(s)
            #expect(e?.kind == .tooComplex)
            #expect(e?.keyword == "maxLength")
        }
        // The reference recognizer does not read counted lengths; the mask tests do (`CountedLengthMaskTests`).
        let counted = try JSONSchemaTestSupport.compile(#"{"type":"string","pattern":"^x","maxLength":2000000000}"#)
        #expect(counted.rules.contains { $0.countedLength?.maximum == 2_000_000_000 })
    }

    @Test(arguments: tooLongBounds)
    func boundTooLongIsRefused(_ b: Bound) {
        let e = JSONSchemaTestSupport.error(b.schema)
        #expect(e?.kind == .tooComplex)
        #expect(e?.keyword == b.keyword)
        #expect(e?.pointer == "")
    }

    @Test func boundWithinTheLimitStaysExact() throws {
        // 700 digits fit (this one trapped): exactly the numbers of 701 integer digits and more are at
        // least 1e700.
        let g = try try JSONSchemaTestSupport.compile(#"{"minimum":1e700}"#)
        let one = "1" + String(repeating: "0", count: 700)
        #expect(JSONSchemaTestSupport.accepts(g, one))
        #expect(JSONSchemaTestSupport.accepts(g, one + ".5"))
        #expect(JSONSchemaTestSupport.accepts(g, "2" + String(repeating: "0", count: 700)))
        #expect(!JSONSchemaTestSupport.accepts(g, String(repeating: "9", count: 700)))
        #expect(!JSONSchemaTestSupport.accepts(g, String(repeating: "9", count: 700) + ".99"))
        #expect(!JSONSchemaTestSupport.accepts(g, "-" + one))
    }

    @Test func hugeConstIsItsOwnLiteral() throws {
        // No plain spelling fits in `maxLiteralDigits`; the schema's literal is an exact one.
        let g = try try JSONSchemaTestSupport.compile(#"{"const":1e999999999}"#)
        #expect(JSONSchemaTestSupport.accepts(g, "1e999999999"))
        #expect(!JSONSchemaTestSupport.accepts(g, "1e999999998"))
        #expect(!JSONSchemaTestSupport.accepts(g, "1"))
        let tiny = try try JSONSchemaTestSupport.compile(#"{"enum":[1e-999999999,2]}"#)
        #expect(JSONSchemaTestSupport.accepts(tiny, "1e-999999999"))
        #expect(JSONSchemaTestSupport.accepts(tiny, "2"))
        #expect(JSONSchemaTestSupport.accepts(tiny, "2.0"))
        #expect(!JSONSchemaTestSupport.accepts(tiny, "0"))
        // An integer-only location admits the whole number and not the fraction.
        let ints = try try JSONSchemaTestSupport.compile(#"{"type":"integer","enum":[1e999999999,-1e-999999999,3]}"#)
        #expect(JSONSchemaTestSupport.accepts(ints, "1e999999999"))
        #expect(!JSONSchemaTestSupport.accepts(ints, "-1e-999999999"))
        #expect(JSONSchemaTestSupport.accepts(ints, "3"))
    }

    @Test(arguments: [#"{"not":{"const":1e999999999}}"#, #"{"type":"number","not":{"enum":[1e-999999999,2]}}"#])
    func hugeExcludedValueIsRefused(_ schema: String) {
        let e = JSONSchemaTestSupport.error(schema)
        #expect(e?.kind == .tooComplex)
        #expect(e?.keyword == "not")
    }

    @Test func plainDigitCountsComeFromTheExponent() throws {
        let huge = try #require(JSONNumber(literal: "-12.5e999999999"))
        #expect(huge.plainDigitCounts == (1_000_000_001, 0))
        #expect(huge.plainDecimal(maxDigits: 4096) == nil)
        let small = try #require(JSONNumber(literal: "0.00125"))
        #expect(small.plainDigitCounts == (1, 5))
        #expect(small.plainDecimal(maxDigits: 5) == JSONNumber.PlainDecimal(integer: "0", fraction: "00125"))
        #expect(small.plainDecimal(maxDigits: 4) == nil)
        let mixed = try #require(JSONNumber(literal: "123.45"))
        #expect(mixed.plainDecimal(maxDigits: 3) == JSONNumber.PlainDecimal(integer: "123", fraction: "45"))
        #expect(JSONNumber(0).plainDecimal(maxDigits: 1) == JSONNumber.PlainDecimal(integer: "0", fraction: ""))
    }
}
