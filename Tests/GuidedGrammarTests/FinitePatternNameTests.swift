import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `patternProperties` patterns that match finitely many names, or all but finitely many, split the
/// undeclared names without a product automaton (`SchemaLowering.FinitePatternSplit`): a name trie
/// excluding the declared and listed names, the listed names as literals, and, where a pattern's `.`
/// leaves names with line terminators out, those names apart.
@Suite struct FinitePatternNameTests {
    static func side(_ pattern: String) throws -> ContentLanguages.FiniteSide? {
        var contents = ContentLanguages()
        var grammar = Grammar()
        return try contents.finiteSide(ofPattern: pattern, pointer: "", keyword: "patternProperties", grammar: &grammar)
    }

    @Test func finiteSidesOfPatterns() throws {
        #expect(try Self.side("^(get|put)$") == .only(["get", "put"]))
        #expect(try Self.side("^(a|b)c?$") == .only(["a", "ac", "b", "bc"]))
        // `.` matches no line terminator: all but one of the single-line names.
        #expect(try Self.side("^(?!pattern$).*$") == .allBut(["pattern"], singleLine: true))
        #expect(try Self.side("^.*$") == .allBut([], singleLine: true))
        // Unanchored, `.*` matches the empty string at the start of every name.
        #expect(try Self.side(".*") == .allBut([], singleLine: false))
        #expect(try Self.side("^(?!x$|y$)[\\s\\S]*$") == .allBut(["x", "y"], singleLine: false))
        // Names with a newline or a quote are listed decoded.
        #expect(try Self.side("^(a\\nb|\"q\")$") == .only(["\"q\"", "a\nb"]))
        // Infinite both ways, or more words than listed.
        #expect(try Self.side("^x-") == nil)
        #expect(try Self.side("[0-9]") == nil)
        #expect(try Self.side("^[a-z]{2}$") == nil)
    }

    /// Patterns apply to declared names too: `elements` is a string of at most 3 characters.
    static let host = #""properties":{"elements":{"maxLength":3}},"patternProperties":{"^(?!pattern$).*$":{"type":"string"}}"#

    static let cases: [SchemaCase] = [
        // web-types' contribution hosts: declared members, every other single-line name but `pattern`.
        // (Line separators are written raw: the grammar spells every character one way, see `JSONText`.)
        SchemaCase(schema: "{\"type\":\"object\",\(host)}",
                   accept: [#"{"elements":"abc"}"#, #"{"x":"s","patterns":"t"}"#, #"{"pattern":1}"#, #"{"a\nb":1}"#, "{\"a\u{2028}\":[]}", "{\"\u{2029}x\":1}", #"{"":"e"}"#],
                   reject: [#"{"x":1}"#, #"{"elements":"abcd"}"#, #"{"elements":1}"#, #"{"patterns":1}"#]),
        // No other names: `pattern` and names with a line terminator are refused.
        SchemaCase(schema: "{\"type\":\"object\",\(host),\"additionalProperties\":false}",
                   accept: [#"{"elements":"a","x":"s"}"#, #"{"patter":"p"}"#],
                   reject: [#"{"pattern":"s"}"#, #"{"a\nb":"s"}"#, #"{"a\rb":"s"}"#, "{\"\u{2029}\":\"s\"}"]),
        // An unanchored `.*` matches every name, with line terminators too.
        SchemaCase(schema: #"{"type":"object","patternProperties":{".*":{"type":"integer"}},"additionalProperties":false}"#,
                   accept: [#"{"a":1,"b\nc":2}"#, #"{}"#], reject: [#"{"a":"x"}"#]),
        // A finite pattern beside a co-finite one: the listed names take both schemas (a declared `put`
        // takes its own and the pattern's, which no value meets).
        SchemaCase(schema: #"{"type":"object","properties":{"put":{"type":"string"}},"patternProperties":{"^(get|put)$":{"type":"integer"},"^(?!del$)[\\s\\S]*$":{"minimum":0}},"additionalProperties":false}"#,
                   accept: [#"{"get":1}"#, #"{"x\ny":true}"#, #"{"x":-0.0}"#, #"{"del\n":1}"#],
                   reject: [#"{"get":-1}"#, #"{"put":"s"}"#, #"{"get":"s"}"#, #"{"del":1}"#, #"{"x":-1}"#, #"{"put":1}"#]),
        // Declared names with other than plain characters: the names and the tail as one automaton.
        SchemaCase(schema: #"{"type":"object","properties":{"né":{"maxLength":2},"q\"":{"maxLength":1}},"patternProperties":{"^(?!x$).*$":{"type":"string"}},"additionalProperties":false}"#,
                   accept: [#"{"né":"ab","q\"":"a","nf":"s","n":"s","néé":"s","q":"b"}"#, #"{"\u0001":"c"}"#],
                   reject: [#"{"x":"s"}"#, #"{"né":"abc"}"#, #"{"q\"":"ab"}"#, #"{"a\nb":"s"}"#, #"{"n":1}"#, "{\"\u{2028}\":\"s\"}"]),
        // Every unlisted name's part has a schema no value meets: only the listed name is left.
        SchemaCase(schema: #"{"type":"object","patternProperties":{"^(?!x$).*$":false,"^x$":{"type":"integer"}},"additionalProperties":false}"#,
                   accept: [#"{"x":1}"#, #"{}"#], reject: [#"{"x":"s"}"#, #"{"y":1}"#, #"{"a\nb":1}"#, #"{"":1}"#]),
        // A listed name with a line terminator where single-line names part ways: the product instead.
        SchemaCase(schema: #"{"type":"object","patternProperties":{"^(?!x$).*$":{"type":"integer"},"^a\nb$":{"type":"string"}}}"#,
                   accept: [#"{"a\nb":"s","x":"t","c\nd":null,"y":2}"#],
                   reject: [#"{"a\nb":1}"#, #"{"y":"s"}"#]),
    ]

    @Test(arguments: cases)
    func namesAreSplitExactly(_ c: SchemaCase) throws {
        try JSONSchemaTestSupport.expectExactly(c)
    }

    /// The split makes one name trie and no product automaton (whose rules are named `name_s…`).
    @Test func noProductAutomaton() throws {
        let split = try JSONSchemaTestSupport.compile("{\"type\":\"object\",\(Self.host)}").rules.map(\.name)
        #expect(split.filter { $0 == "name-dispatch" }.count == 1)
        #expect(!split.contains { $0.hasPrefix("name_s") })
        let product = try JSONSchemaTestSupport.compile(Self.cases[6].schema).rules.map(\.name)
        #expect(product.contains { $0.hasPrefix("name_s") })
        #expect(!product.contains("name-dispatch"))
        // Words of other characters: the names and the tail written as one automaton.
        let written = try JSONSchemaTestSupport.compile(Self.cases[4].schema).rules.map(\.name)
        #expect(written.contains { $0.hasPrefix("name_s") })
        #expect(!written.contains("name-dispatch"))
    }
}
