import Testing
import GuidedSchema
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

/// Arrays of distinct values (`uniqueItems` over numbers, objects, arrays, literals and mixed items:
/// `GrammarRule.distinctByValue`, `DistinctItems.readValue`), against an independent judge at every
/// position of a few documents: a token is allowed exactly when the text with it begins some instance
/// the validator accepts. The judge tries every completion of up to two characters of the alphabet, each
/// followed by one of a few endings (a fresh member, a digit, closing brackets), which reaches a valid
/// instance from every viable prefix of these documents. A token the matcher allows and the judge finds
/// no completion for is a dead end; one the judge completes and the matcher refuses is a lost instance.
@Suite struct DistinctValueItemsMaskTests {
    /// (The grammar spells strings one way, so no `\u` escape of a plain character: `CanonicalJSONTests`
    /// covers escapes. Whitespace only between tokens: the grammar has none around the document.)
    static let tokens = ["[", "]", ",", "{", "}", "\"", ":", "a", "z", "0", "1", "-", ".", "e", "t", "true", "null", "f",
                         "1,", "1]", "0,", "0]", "1.0", ",1", "10", "e1", "}]", "},{", "{}", "\"a\"", "\"a", "a\"", ":1",
                         "1}", ":1}", "[]", "],[", "\\", "\\\\", "true,", "{\"a\":1}", "\":", ", ", ", {"]

    /// Each schema with documents, and tokens left out where the grammar is narrower than the validator
    /// on purpose (integers are spelled without fraction or exponent).
    static let cases: [(schema: String, documents: [String], without: [String])] = [
        // Numbers by value: 1, 1.0 and 10e-1 are one value; 0 and -0 too.
        (#"{"type":"array","items":{"type":"number"},"uniqueItems":true}"#,
         ["[1,10,1.5,0,2e1]", "[1.0,0.1,-1,200e-2]", "[0,-1]"], []),
        // Integers: a written 0 refuses the next 0 (and -0) at that digit, nothing else can follow it.
        (#"{"type":"array","items":{"type":"integer"},"uniqueItems":true}"#,
         ["[0,1,10,-1]", "[1,0,-10]"], ["1.0", ".", "e", "e1"]),
        // Objects regardless of member order and spelling; fresh members keep every prefix viable.
        (#"{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"}}},"uniqueItems":true}"#,
         [#"[{},{"a":1},{"a":0},{"z":1}]"#, #"[{"a":1,"z":1},{"z":1,"a":0},{"a":1}]"#], ["1.0", ".", "e", "e1"]),
        // Any items: literals decided at their first byte, strings by code points, arrays item by item.
        (#"{"type":"array","uniqueItems":true}"#,
         [#"[true,null,1,"a",{},[],[1]]"#, #"["\\",[],{"a":1}]"#, #"[[1],[1,1],[]]"#, "[false,-0.0,1]", "[0e1,-1.0E+5,0.5]"], []),
        // Strings or objects, as a oneOf of disjoint branches.
        (#"{"type":"array","items":{"oneOf":[{"type":"string","minLength":1},{"type":"object","minProperties":1}]},"uniqueItems":true}"#,
         [#"["a",{"a":1},"aa",{"a":0}]"#], []),
        // An array of distinct strings inside the items: its repeats stop only its own parses.
        (#"{"type":"array","items":{"type":"object","properties":{"t":{"type":"array","items":{"type":"string"},"uniqueItems":true}}},"uniqueItems":true}"#,
         [#"[{"t":["a","z"]},{"t":["a"]},{"t":[]},{"a":["a","a"]}]"#, #"[{"t":["a"]},{"t":["z","a"]},{"t":["a"],"z":1}]"#], []),
        // Whitespace between and inside items is no part of the value.
        (#"{"type":"array","items":{"type":"object"},"uniqueItems":true}"#,
         [#"[{"a":1}, {"a": 1, "z":1}, { }]"#], []),
        // Items by position: two booleans, each decided at its first byte (the second has one left), then
        // any values.
        (#"{"type":"array","prefixItems":[{"type":"boolean"},{"type":"boolean"}],"uniqueItems":true}"#,
         ["[true,false,1,null]", "[false,true,[],\"a\"]", "[false]"], []),
        // Two booleans and nothing after them.
        (#"{"type":"array","prefixItems":[{"type":"boolean"},{"type":"boolean"}],"items":false,"uniqueItems":true}"#,
         ["[true,false]", "[false,true]", "[true]"], []),
        // Known values or any string (and integers): the listed strings go on as plain strings.
        (#"{"type":"array","items":{"anyOf":[{"enum":["a","z"]},{"type":"string"},{"type":"integer"}]},"uniqueItems":true}"#,
         [#"["a","aa",1,"z","z1"]"#, #"["z","",0]"#], ["1.0", ".", "e", "e1"]),
        // At most two booleans: the second always has one left.
        (#"{"type":"array","items":{"type":"boolean"},"maxItems":2,"uniqueItems":true}"#,
         ["[true,false]", "[false,true]", "[]"], []),
    ]

    static let alphabet = ["[", "]", ",", "{", "}", "\"", ":", "a", "z", "0", "1", "-", "."]
    static let endings = ["", "]", "}]", "\"}]", "1}]", ":1}]", "\":1}]", ",\"z\":1}]", "\"z\":1}]", "1]", "\"]", "]]", "]}]", "1]]",
                          "rue]", "ue]", "e]", "alse]", "lse]", "se]", "ull]", "ll]", "l]", "\\\"]", "rue]]", "rue}]", "alse]]", "alse}]",
                          "\"a\":1}]", "a\":1}]", ":1,\"z\":1}]", "\"a\":0}]", "\"z\":0}]", "\"z\"]", "\"z\"]}]", "z\"]}]", "\"]}]", ":[]}]", "rue]}]", "alse]}]", "true]", "false]", "null]"]

    /// Completions the judge tries: one character of the alphabet (or none) then one of the endings, or
    /// two characters then a closing bracket or brace.
    static let completions: [String] = {
        let one = [""] + alphabet
        var out = one.flatMap { s in endings.map { s + $0 } }
        for a in alphabet { for b in alphabet { for e in ["", "]", "}]"] { out.append(a + b + e) } } }
        return out
    }()

    final class Judge {
        let validator: JSONSchemaValidator
        /// The grammar never repeats a declared name (undeclared ones may repeat, the last value counts).
        let declaresNames: Bool
        var known: [String: Bool] = [:]
        init(_ schema: String) throws {
            validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
            declaresNames = schema.contains(#""properties""#)
        }

        func valid(_ text: String) -> Bool {
            guard let first = text.first, first != " ", text.last != " ", !(declaresNames && Self.repeatsKey(text)),
                  let value = try? JSONParser.parse(text) else { return false }
            return validator.isValid(value)
        }

        /// Whether some object in `text` repeats a key (the grammar never does; the parser keeps the last).
        static func repeatsKey(_ text: String) -> Bool {
            var keys: [Set<String>] = []
            var inString = false, escaped = false, current = "", lastString: String? = nil
            for c in text {
                if inString {
                    if escaped { escaped = false; current.append(c) } else if c == "\\" { escaped = true; current.append(c) }
                    else if c == "\"" { inString = false; lastString = current } else { current.append(c) }
                    continue
                }
                switch c {
                case "\"": inString = true; current = ""
                case "{": keys.append([])
                case "}": if !keys.isEmpty { keys.removeLast() }
                case ":":
                    if let k = lastString, !keys.isEmpty, !keys[keys.count - 1].insert(k).inserted { return true }
                default: break
                }
                if c != " " && c != "\"" { lastString = c == ":" ? nil : lastString }
                if c != " " && c != "\"" && c != ":" { lastString = nil }
            }
            return false
        }

        func viable(_ text: String) -> Bool {
            if let k = known[text] { return k }
            let v = DistinctValueItemsMaskTests.completions.contains { valid(text + $0) }
            known[text] = v
            return v
        }
    }

    @Test(arguments: 0..<11)
    func masksAreExactAndLive(_ k: Int) throws {
        let (schema, documents, without) = Self.cases[k]
        let grammar = try JSONSchemaCompiler.compile(text: schema, options: JSONSchemaCompileOptions(whitespace: .bounded(maxRun: 2),
                                                                                                     propertyOrder: .memberSets))
        let compiled = try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(Self.tokens))
        let judge = try Judge(schema)
        let repeats = try Judge(schema.replacingOccurrences(of: #""uniqueItems":true"#, with: #""uniqueItems":false"#))
        let (checked, refused) = try MaskTestSupport.compareWithJudge(compiled, tokens: Self.tokens, documents: documents, skipping: without,
                                                                      viable: judge.viable, valid: judge.valid,
                                                                      repeatsViable: repeats.viable, label: schema)
        #expect(checked > 100 && refused >= 3, "\(refused) refused repeats in \(checked) checks")
    }

    /// Where an item completes, and what is refused with the matcher unchanged.
    @Test func acceptRefusesRepeatsWhereTheyComplete() throws {
        let grammar = try JSONSchemaCompiler.compile(text: #"{"type":"array","uniqueItems":true}"#,
                                                     options: JSONSchemaCompileOptions(whitespace: .compact))
        let compiled = try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(Self.tokens))
        var m = GrammarMatcher(compiled)
        try m.accept(bytes: Array(#"[{"b":[1,{"c":null}],"a":"x"},2.50,true,"é""#.utf8))
        // The same object in another order, spelling and spacing: refused at its closing brace.
        #expect(throws: MatcherError.bytesRejected(offset: 32, position: 76)) {
            try m.accept(bytes: Array(#",{"a":"x","b":[10e-1,{"c":null}]}"#.utf8))
        }
        // 2.5 as 25e-1: refused at the separator after it, and the number may go on instead.
        #expect(throws: MatcherError.bytesRejected(offset: 6, position: 50)) { try m.accept(bytes: Array(",25e-1,".utf8)) }
        try m.accept(bytes: Array(",25e-10".utf8))
        // true at its first byte; a string at its closing quote.
        #expect(throws: MatcherError.bytesRejected(offset: 1, position: 52)) { try m.accept(bytes: Array(",t".utf8)) }
        #expect(throws: MatcherError.bytesRejected(offset: 4, position: 55)) { try m.accept(bytes: Array(#","é""#.utf8)) }
        try m.accept(bytes: Array(#","é!"]"#.utf8))
        #expect(m.canTerminate)
        // A rollback forgets the items it takes back.
        try m.rollback(1)
        try m.accept(bytes: Array(#","é!"]"#.utf8))
        #expect(throws: MatcherError.self) { try m.accept(bytes: Array(#","é!""#.utf8)) }
    }

    /// Integers: `0` and `-0` are decided at the digit.
    @Test func integerZeroIsDecidedAtItsDigit() throws {
        let grammar = try JSONSchemaCompiler.compile(text: #"{"type":"array","items":{"type":"integer"},"uniqueItems":true}"#,
                                                     options: JSONSchemaCompileOptions(whitespace: .compact))
        let compiled = try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(Self.tokens))
        var m = GrammarMatcher(compiled)
        try m.accept(bytes: Array("[0,".utf8))
        #expect(throws: MatcherError.bytesRejected(offset: 0, position: 3)) { try m.accept(bytes: Array("0".utf8)) }
        #expect(throws: MatcherError.bytesRejected(offset: 1, position: 4)) { try m.accept(bytes: Array("-0".utf8)) }
        try m.accept(bytes: Array("-1,10]".utf8))
        #expect(m.canTerminate)
    }
}

/// `CanonicalJSON`: equal forms exactly for values equal under JSON Schema's equality.
@Suite struct CanonicalJSONTests {
    static func form(_ text: String) -> String {
        var c = CanonicalJSON()
        let bytes = Array(text.utf8)
        c.form(bytes, 0, bytes.count)
        return String(decoding: c.scratch, as: UTF8.self)
    }

    @Test func forms() {
        #expect(Self.form("1") == "n1e0;")
        #expect(Self.form("-0.0") == "n0;")
        #expect(Self.form("120.50e-3") == "n1205e-4;")
        #expect(Self.form("1E+400") == "n1e400;")
        #expect(Self.form("100000000000000000000000e-1") == "n1e22;")
        #expect(Self.form("0.001e99999999999999999999") == "n1e99999999999999999996;")
        #expect(Self.form("10e-99999999999999999999") == "n1e-99999999999999999998;")
        #expect(Self.form("99e99999999999999999999") == "n99e99999999999999999999;")
        #expect(Self.form(#" "a\"\\\/\u00e9\ud83d\ude00" "#) == "\"a\\\"\\\\/é😀\"")
        #expect(Self.form(#"{ "b" : [true,false,null], "a":{} }"#) == #"{"a"{}"b"[tfz]}"#)
        #expect(Self.form(#"{"a":1,"b":2,"a":3}"#) == #"{"a"n3e0;"b"n2e0;}"#)
    }

    @Test(arguments: [
        ("1", "1.0", true), ("1", "10e-1", true), ("0", "-0", true), ("1e2", "100", true), ("1", "-1", false),
        ("0.1", "1e-1", true), ("12", "21", false), ("1e99999999999999999999", "10e99999999999999999998", true),
        ("1e99999999999999999999", "1e99999999999999999998", false),
        (#""A""#, #""\u0041""#, true), (#""\ud83d\ude00""#, #""😀""#, true), (#""a""#, #""a ""#, false),
        (#"{"a":1,"b":[2]}"#, #"{ "b":[2.0],"a":1 }"#, true), (#"{"a":1}"#, #"{"a":1,"b":1}"#, false),
        (#"{"a":{"x":1,"y":2}}"#, #"{"a":{"y":2,"x":1}}"#, true), ("[1,2]", "[2,1]", false), ("[]", "{}", false),
        (#""1""#, "1", false), ("true", "\"true\"", false), ("null", "false", false),
    ])
    func equality(_ a: String, _ b: String, _ equal: Bool) throws {
        #expect((Self.form(a) == Self.form(b)) == equal)
        // The validator agrees (where its exponents do not saturate, past 10^8).
        if !a.contains("99999999") { #expect((try JSONParser.parse(a) == JSONParser.parse(b)) == equal) }
    }
}
