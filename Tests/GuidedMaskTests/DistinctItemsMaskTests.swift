import Testing
import GuidedSchema
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// Masks inside arrays of distinct strings (`uniqueItems`, `DistinctItems`), against brute force with an
/// independent judge: at every position of a few documents, a token is allowed exactly when the text
/// with it is the prefix of some instance the validator accepts (found among all completions of up to
/// four characters, enough for every prefix these documents reach). That is both directions at once:
/// no token closing a repeated item, and no token leading where nothing valid follows (liveness).
@Suite struct DistinctItemsMaskTests {
    /// Single characters, and tokens that close an item, whole items, two items, a whole array.
    static let tokens = ["[", "]", ",", "\"", "a", "b", "\\", "ab", "\"a\"", "a\"", "\"]", "\",\"", "a\",\"", "a\",\"a\"",
                         "\"a\",\"a\"", "[\"a\",\"a\"]", "\\\"", "\\\\", "\"a", "a\"]", "\"\"", "\",\"\"", "b\"", "\\\"\""]

    static let cases: [(schema: String, documents: [String])] = [
        (#"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#,
         [#"["a","b","ab","ba"]"#, #"["\"","a\\","\"\""]"#, #"["","b"]"#]),
        (#"{"anyOf":[{"type":"array","items":{"type":"string"},"uniqueItems":true},{"type":"array","items":{"type":"string"},"maxItems":2}]}"#,
         [#"["a","a"]"#, #"["a","b","a"]"#.replacingOccurrences(of: #","a"]"#, with: #","ab"]"#)]),
        (#"{"type":"array","items":{"type":"array","items":{"type":"string"},"uniqueItems":true}}"#,
         [#"[["a"],["a","b"]]"#, #"[["a","ab"],[]]"#]),
        // Listed values (a finite language): no separator once every value is written, no text that
        // only written values begin with, `minItems` reachable with the values left.
        // (minItems 1: the judge's completions are too short to reach two items from "[".)
        (#"{"type":"array","items":{"type":"string","pattern":"^(a|ab|b)$"},"uniqueItems":true,"minItems":1}"#,
         [#"["a","ab","b"]"#, #"["ab","a"]"#, #"["b","ab","a"]"#]),
        (#"{"type":"array","items":{"enum":["a","b","ab","ba","aa","bb","aab","abb"]},"uniqueItems":true}"#,
         [#"["ab","aab","a","abb"]"#, #"["bb","b","ba"]"#]),
        (#"{"anyOf":[{"type":"array","items":{"type":"string","pattern":"^(a|b)$"},"uniqueItems":true},{"type":"array","items":{"type":"string"},"maxItems":3}]}"#,
         [#"["a","b","b"]"#, #"["b","a"]"#]),
        // A language too large to list (every string of at most one character): counted on its automaton;
        // a written one-character item leaves nothing to write after that character.
        (#"{"type":"array","items":{"type":"string","maxLength":1},"uniqueItems":true}"#,
         [#"["a","b",""]"#, #"["\"","\\","a"]"#]),
        // (Items begin with a or b, so that the judge's four characters always reach a new item.)
        (#"{"type":"array","items":{"type":"string","pattern":"^[ab]"},"uniqueItems":true}"#,
         [#"["a","ab","a\\"]"#]),
    ]

    /// Completions the judge tries: every string of up to four of these characters.
    static let completions: [String] = {
        let alphabet = ["a", "b", "\"", "]", "[", ","]
        var out = [""], frontier = [""]
        for _ in 0..<4 {
            frontier = frontier.flatMap { s in alphabet.map { s + $0 } }
            out += frontier
        }
        return out
    }()

    final class Judge {
        let validator: JSONSchemaValidator
        var known: [String: Bool] = [:]
        init(_ schema: String) throws { validator = JSONSchemaValidator(schema: try JSONParser.parse(schema)) }

        func valid(_ text: String) -> Bool {
            guard let value = try? JSONParser.parse(text) else { return false }
            return validator.isValid(value)
        }

        /// Whether `text` begins some valid instance.
        func viable(_ text: String) -> Bool {
            if let k = known[text] { return k }
            let v = DistinctItemsMaskTests.completions.contains { valid(text + $0) }
            known[text] = v
            return v
        }
    }

    @Test(arguments: 0..<8)
    func masksAreExactAndLive(_ k: Int) throws {
        let (schema, documents) = Self.cases[k]
        let grammar = try JSONSchemaCompiler.compile(text: schema, options: JSONSchemaCompileOptions(whitespace: .compact))
        let vocabulary = MaskTestSupport.vocabulary(Self.tokens)
        let compiled = try MaskTestSupport.compiled(grammar, vocabulary)
        let judge = try Judge(schema)
        // The same schema with repeats allowed: tokens it takes and `judge` refuses are the repeats.
        let repeats = try Judge(schema.replacingOccurrences(of: #""uniqueItems":true"#, with: #""uniqueItems":false"#))
        let (checked, refused) = try MaskTestSupport.compareWithJudge(compiled, tokens: Self.tokens, documents: documents,
                                                                      viable: judge.viable, valid: judge.valid,
                                                                      repeatsViable: repeats.viable, label: schema)
        // Repeats were offered and refused: the test is not passing on the grammar alone.
        #expect(checked > 100 && refused >= 3, "\(refused) refused repeats in \(checked) checks")
    }

    /// Accepting a repeated item is refused with the matcher unchanged; rollback forgets the items it
    /// takes back, so the same item may then come again.
    @Test func acceptAndRollback() throws {
        let grammar = try JSONSchemaCompiler.compile(text: #"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#,
                                                     options: JSONSchemaCompileOptions(whitespace: .compact))
        let compiled = try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(Self.tokens))
        var m = GrammarMatcher(compiled)
        try m.accept(bytes: Array(#"["ab","a"#.utf8))
        #expect(throws: MatcherError.bytesRejected(offset: 1, position: 9)) { try m.accept(bytes: Array(#"b""#.utf8)) }
        #expect(throws: MatcherError.tokenRejected(token: 22, position: 8)) { try m.accept(token: 22) }   // b" closes "ab" again
        try m.accept(token: 9)                                   // a" closes "aa"
        try m.rollback(1)
        try m.accept(bytes: Array(#"""#.utf8))                  // "a"
        #expect(throws: MatcherError.bytesRejected(offset: 3, position: 12)) { try m.accept(bytes: Array(#","a""#.utf8)) }
        try m.accept(bytes: Array(#","aa"]"#.utf8))             // "aa" was taken back with the rollback
        #expect(m.canTerminate)
    }

    /// A long array: every earlier item is found (the matcher's filter of item hashes never hides one),
    /// also after a rollback takes items back and others come in their place.
    @Test func longArrays() throws {
        let grammar = try JSONSchemaCompiler.compile(text: #"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#,
                                                     options: JSONSchemaCompileOptions(whitespace: .compact))
        let compiled = try MaskTestSupport.compiled(grammar, MaskTestSupport.vocabulary(Self.tokens))
        // 300 distinct items of nine letters a/b: item k spells k in binary.
        let words = (0..<300).map { k in String((0..<9).map { (k >> (8 - $0)) & 1 == 0 ? "a" : "b" }) }
        var m = GrammarMatcher(compiled, maxRollback: nil)
        try m.accept(bytes: Array("[".utf8))
        for (k, w) in words.enumerated() { try m.accept(bytes: Array(((k == 0 ? "" : ",") + "\"" + w + "\"").utf8)) }
        let aQuote = Self.tokens.firstIndex(of: "a\"")!, bQuote = Self.tokens.firstIndex(of: "b\"")!
        for k in [0, 1, 150, 298, 299] {
            var probe = m
            let w = words[k]
            try probe.accept(bytes: Array((",\"" + w.dropLast()).utf8))
            let allowed = Set(try MaskTestSupport.allowed(&probe))
            // The token that closes the repeat is refused, the other letter's is allowed unless it repeats too.
            let closing = w.last == "a" ? aQuote : bQuote, other = w.last == "a" ? bQuote : aQuote
            let otherWord = String(w.dropLast()) + (w.last == "a" ? "b" : "a")
            #expect(!allowed.contains(closing), "item \(k) may not come again")
            #expect(allowed.contains(other) == !words.contains(otherWord), "item \(otherWord)")
            #expect(throws: MatcherError.self) { try probe.accept(token: closing) }
        }
        // Take back the last 100 items (one accept each): they may come again, the others may not.
        try m.rollback(100)
        for (k, w) in words.enumerated() {
            var probe = m
            let again = (try? probe.accept(bytes: Array((",\"" + w + "\"").utf8))) != nil
            #expect(again == (k >= 200), "item \(k) after the rollback")
        }
    }
}
