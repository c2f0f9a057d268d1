import Testing
@testable import GuidedSchema

/// Objects past `JSONObject.indexedCount` members look keys up through a hash index by key bytes; it
/// must agree with the linear lookup in everything: order, duplicates, removal, Unicode.
@Suite struct JSONObjectIndexTests {
    @Test func largeObjectKeepsOrderDuplicatesAndRemovals() throws {
        var o = JSONObject()
        for i in 0..<1_000 { o["k\(i)"] = .number(JSONNumber(i)) }
        #expect(o.count == 1_000)
        #expect(o.index(of: "k999") == 999)
        #expect(o["k500"] == .number(JSONNumber(500)))
        o["k3"] = .null   // a duplicate keeps its first position, takes the last value
        #expect(o.index(of: "k3") == 3 && o["k3"] == .null && o.count == 1_000)
        o["k0"] = nil      // a removal shifts the positions after it
        #expect(o.index(of: "k1") == 0 && o.index(of: "k999") == 998 && o["k0"] == nil)
        o["new"] = .bool(true)
        #expect(o.index(of: "new") == 999 && o.keys.last == "new")
    }

    @Test func canonicallyEquivalentKeysStayApart() throws {
        // "é" precomposed and decomposed are equal Swift strings but different JSON keys.
        let keys = (0..<20).map { "filler\($0)" } + ["\u{E9}", "e\u{301}"]
        var small = JSONObject(), large = JSONObject()
        for (i, k) in keys.suffix(2).enumerated() { small[k] = .number(JSONNumber(i)) }
        for (i, k) in keys.enumerated() { large[k] = .number(JSONNumber(i)) }
        #expect(small.count == 2 && large.count == 22)
        #expect(small["e\u{301}"] == .number(JSONNumber(1)) && large["e\u{301}"] == .number(JSONNumber(21)))
        #expect(large["\u{E9}"] == .number(JSONNumber(20)))
    }

    @Test func parsedLargeObjectMatchesLookups() throws {
        let text = "{" + (0..<300).map { "\"p\($0)\": \($0)" }.joined(separator: ", ") + ", \"p7\": \"last\"}"
        guard case .object(let o) = try JSONParser.parse(text) else { Issue.record("not an object"); return }
        #expect(o.count == 300)
        #expect(o["p7"] == .string("last") && o.index(of: "p7") == 7 && o["p299"] == .number(JSONNumber(299)))
    }
}
