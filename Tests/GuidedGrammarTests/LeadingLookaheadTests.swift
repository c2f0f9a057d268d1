import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Lookaheads at the start of a `pattern` (`^(?!X)R`, `^(?=X)R`) are built as automaton differences and
/// intersections: the masks accept exactly what PCRE2, the validator's engine, matches. Lookarounds
/// elsewhere are built by `LookaroundLanguage` (LookaroundPatternTests).
@Suite struct LeadingLookaheadTests {
    static let cases: [SchemaCase] = [
        // A package name outside a reserved prefix (JSON Schema Store's bukkit-plugin.json).
        SchemaCase(schema: #"{"type":"string","pattern":"^(?!org\\.bukkit\\.)([a-zA-Z_$][a-zA-Z\\d_$]*\\.)*[a-zA-Z_$][a-zA-Z\\d_$]*$"}"#,
                   accept: [#""com.example.Main""#, #""org.bukkitx.A""#, #""org.Main""#],
                   reject: [#""org.bukkit.Main""#, #""com..Main""#, #""""#]),
        // The lookahead's body ends with `$`: every string but one.
        SchemaCase(schema: #"{"type":"string","pattern":"^(?!pattern$).*$"}"#,
                   accept: [#""patterns""#, #""patter""#, #""""#, #""xpattern""#], reject: [#""pattern""#]),
        // Positive and negative together: at least one digit, not starting with "0".
        SchemaCase(schema: #"{"type":"string","pattern":"^(?=.*[0-9])(?!0)[a-z0-9]{2,4}$"}"#,
                   accept: [#""a1""#, #""10""#, #""abc9""#], reject: [#""ab""#, #""01""#, #""a""#, #""abcd1""#]),
        // An alternation inside the lookahead; the rest unanchored at its end.
        SchemaCase(schema: #"{"type":"string","pattern":"^(?!(foo|bar))\\w"}"#,
                   accept: [#""baz""#, #""fo!""#, #""x""#], reject: [#""foo""#, #""barn""#, #""!x""#]),
        // As a property-name pattern, and under `not`.
        SchemaCase(schema: #"{"type":"object","patternProperties":{"^(?!@@)[a-z@]+$":{"type":"integer"}},"additionalProperties":false}"#,
                   accept: [#"{"a@":1}"#, #"{"@a":2}"#], reject: [#"{"@@a":1}"#, #"{"a@":"x"}"#]),
        SchemaCase(schema: #"{"type":"string","not":{"pattern":"^(?!a)"}}"#,
                   accept: [#""a""#, #""abc""#], reject: [#""b""#, #""""#]),
    ]

    @Test(arguments: cases)
    func leadingLookaheadsAreExact(_ c: SchemaCase) throws {
        try JSONSchemaTestSupport.expectExactly(c)
    }

    /// The split itself: the parts, and the patterns it leaves alone (the regex reader refuses those).
    @Test func splitsOnlyLeadingLookaheadsWithoutATopLevelBar() {
        let split = LeadingLookaheads(#"^(?=a(?:b|c))(?!x$)[\]()]+"#)
        #expect(split?.lookaheads == [.init(negative: false, pattern: "^(?:a(?:b|c))"), .init(negative: true, pattern: "^(?:x)$")])
        #expect(split?.rest == #"^[\]()]+"#)
        #expect(LeadingLookaheads("a(?!b)") == nil)
        #expect(LeadingLookaheads("(?!b)a") == nil)
        #expect(LeadingLookaheads("^(?!a)b|c") == nil)
        #expect(LeadingLookaheads("^(?!a$|b)c") == nil)
        #expect(LeadingLookaheads("^(?!a") == nil)
    }

    /// Lookarounds past the start go to `LookaroundLanguage` (LookaroundPatternTests); what it cannot
    /// build stays refused, naming the pattern and why.
    @Test func otherLookaroundsStayRefused() {
        for (pattern, message) in [
            (#"a(?=b)b(?<=b)"#, "a lookahead before a lookbehind in one alternative is not supported"),
            (#"(a(?!b))*"#, "a lookaround or anchor inside a repetition (other than `?`) is not supported"),
            (#"a(?=b(?!c))"#, "a lookaround inside another is not supported"),
        ] {
            do {
                _ = try JSONSchemaTestSupport.compile(#"{"pattern":"\#(pattern)"}"#)
                Issue.record("compiled \(pattern)")
            } catch {
                #expect("\(error)".hasSuffix(message), "\(error)")
                #expect("\(error)".hasPrefix("unsupported keyword 'pattern' at the root: pattern"), "\(error)")
            }
        }
    }
}
