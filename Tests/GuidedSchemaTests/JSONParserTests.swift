import Testing
@testable import GuidedSchema

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderAndNumberText() throws {
        let v = try JSONParser.parse(#"{"b": 1.10, "a": [true, null, "x\u00e9\n"], "c": 12345678901234567891}"#)
        #expect(v.objectValue?.keys == ["b", "a", "c"])
        #expect(v.serialized() == #"{"b":1.10,"a":[true,null,"xé\n"],"c":12345678901234567891}"#)
        #expect(v.serialized(.pythonDefault) == #"{"b": 1.10, "a": [true, null, "xé\n"], "c": 12345678901234567891}"#)
    }

    @Test func schemaEquality() throws {
        #expect(try JSONParser.parse("1.0") == JSONParser.parse("1"))
        #expect(try JSONParser.parse("1e2") == JSONParser.parse("100"))
        #expect(try JSONParser.parse("12345678901234567891") != JSONParser.parse("12345678901234567890"))
        #expect(try JSONParser.parse(#"{"a":1,"b":2}"#) == JSONParser.parse(#"{"b":2,"a":1.0}"#))
        #expect(try JSONParser.parse("[1,2]") != JSONParser.parse("[2,1]"))
        #expect(try JSONParser.parse("0") == JSONParser.parse("-0.0"))
        let set: Set<JSONValue> = [try JSONParser.parse(#"{"a":1,"b":2}"#), try JSONParser.parse(#"{"b":2.0,"a":1}"#)]
        #expect(set.count == 1)
    }

    @Test func numberOrderingAndIntegers() throws {
        let n = { (s: String) in JSONNumber(literal: s)! }
        #expect(n("-5") < n("-4.9"))
        #expect(n("0.1") < n("1e-0"))
        #expect(n("99") < n("1e2"))
        #expect(!(n("1e2") < n("100.0")))
        #expect(n("1.0").isInteger && n("1e2").isInteger && !n("1.5").isInteger)
        #expect(n("1e2").intValue == 100 && n("-7").intValue == -7 && n("1e30").intValue == nil)
    }

    @Test(arguments: [
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("[1,\n 2,,]", 2, 4, "expected a value"),
        ("01", 1, 1, "leading zero in a number"),
        ("\"abc", 1, 5, "unterminated string"),
        ("[1] x", 1, 5, "unexpected text after the JSON value"),
        ("\"\\q\"", 1, 2, "invalid escape '\\q'"),
        ("\"\\ud800\"", 1, 8, "unpaired surrogate in \\u escape"),
        ("tru", 1, 1, "expected 'true'"),
        ("1.", 1, 3, "expected a digit after '.'"),
        ("", 1, 1, "expected a value, found end of input"),
    ])
    func errorPositions(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.message == message)
        }
    }

    /// A string is read straight from the input while it is plain ASCII, and by the general loop from
    /// the first escape, non-ASCII byte or control character on: values and error offsets are the same
    /// wherever that switch happens.
    @Test func stringsSwitchingFromThePlainRun() throws {
        let cases: [(String, String)] = [
            (#""""#, ""), (#""plain key""#, "plain key"), (#""ab\nc""#, "ab\nc"), (#""ab\"c""#, "ab\"c"),
            (#""caf\u00e9!""#, "café!"), (#""café!""#, "café!"), (#""é""#, "é"), (#""a😀b\/""#, "a😀b/"),
            (#""\\x""#, "\\x"), (#""x\\""#, "x\\"),
        ]
        for (text, value) in cases {
            #expect(try JSONParser.parse(text) == .string(value), "\(text)")
            #expect(try JSONParser.parse("[" + text + "," + text + "]") == .array([.string(value), .string(value)]))
        }
        func failure(_ bytes: [UInt8]) -> String {
            do { _ = try JSONParser.parse(bytes: bytes); return "accepted" } catch { return "\(error.offset) \(error.message)" }
        }
        // A control character after a plain prefix, invalid UTF-8 after one, an end after one.
        #expect(failure(Array("\"abc\ndef\"".utf8)) == "4 control character in a string must be escaped")
        #expect(failure([0x22, 0x61, 0x62, 0xC3, 0x28, 0x22]) == "3 invalid UTF-8 sequence")
        #expect(failure(Array("\"abc".utf8)) == "4 unterminated string")
        #expect(failure(Array("\"ab\\".utf8)) == "4 unterminated escape")
    }

    @Test func rejectsInvalidUTF8() {
        do {
            _ = try JSONParser.parse(bytes: [0x22, 0xC3, 0x28, 0x22])
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.message == "invalid UTF-8 sequence")
            #expect(error.offset == 1)
        }
    }
}

@Suite struct UTF8ScanTests {
    @Test(arguments: [
        ([0x41], UTF8Scan.Result.valid(1)),
        ([0xC3, 0xA9], .valid(2)),
        ([0xF0, 0x9F, 0x98, 0x80], .valid(4)),
        ([0xE2, 0x82], .truncated),
        ([0xC0, 0x80], .invalidLead(0xC0)),
        ([0xED, 0xA0, 0x80], .invalidContinuation),  // a UTF-16 surrogate written as UTF-8
        ([0xE0, 0x80, 0x80], .invalidContinuation),  // overlong
    ] as [([UInt8], UTF8Scan.Result)])
    func classifies(bytes: [UInt8], expected: UTF8Scan.Result) {
        #expect(UTF8Scan.sequence(in: bytes, at: 0) == expected)
    }

    @Test func strictAndTolerantParsersAgreeOnBadBytes() throws {
        let bad: [UInt8] = [0x22, 0x61, 0xED, 0xA0, 0x80, 0x22]
        #expect(throws: JSONParseError(offset: 2, line: 1, column: 3, message: "invalid UTF-8 sequence")) { try JSONParser.parse(bytes: bad) }
        #expect(throws: JSONParseError(offset: 2, line: 1, column: 3, message: "invalid UTF-8 sequence")) { try PartialJSONParser.parse(bytes: bad) }
        // Cut inside a valid sequence: the strict parser says so, the tolerant one leaves the character out.
        #expect(throws: JSONParseError(offset: 2, line: 1, column: 3, message: "truncated UTF-8 sequence")) { try JSONParser.parse(bytes: [0x22, 0x61, 0xE2, 0x82]) }
        #expect(try PartialJSONParser.parse(bytes: [0x22, 0x61, 0xE2, 0x82]).value == "a")
    }
}
