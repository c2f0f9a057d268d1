import Testing
@testable import GuidedGrammar

/// `Grammar(regex:)` and `Grammar.accepts(text:)` / `accepts(bytes:)` (docs/api.md, section 6).
@Suite struct GrammarConvenienceTests {
    @Test func regexGrammarMatchesWholeText() throws {
        let g = try Grammar(regex: #"\d{3}-\d{4}"#)
        #expect(try g.accepts(text: "555-0100"))
        #expect(try !g.accepts(text: "call 555-0100"))
        #expect(try !g.accepts(text: "555-0100 "))
        #expect(try !g.accepts(text: "555-010"))
        #expect(try !g.accepts(text: ""))
    }

    @Test func regexGrammarIsTheGrammarDialectLowering() throws {
        // Same rule body as lowering the pattern by hand, so `Grammar(regex:)` is only a spelling.
        let pattern = "(ab)+|c.d"
        #expect(try Grammar(regex: pattern) == Grammar(root: RegexLowering.compile(pattern, dialect: .grammar)))
        // The grammar dialect's `.` excludes only the newline.
        let g = try Grammar(regex: pattern)
        #expect(try g.accepts(text: "c\rd"))
        #expect(try !g.accepts(text: "c\nd"))
    }

    @Test func regexGrammarIsUTF8() throws {
        let g = try Grammar(regex: "é+")
        #expect(try g.accepts(bytes: [0xC3, 0xA9, 0xC3, 0xA9]))
        #expect(try !g.accepts(bytes: [0xC3]))
    }

    @Test func refusedRegexThrowsAtItsOffset() {
        #expect(throws: RegexError.self) { try Grammar(regex: "a(?=b)") }
        do {
            _ = try Grammar(regex: "ab(")
            Issue.record("an unclosed group parsed")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.offset == 2)          // the group that is never closed
        }
    }

    @Test func gbnfAccepts() throws {
        let g = try Grammar(gbnf: #"root ::= "x" [0-9]*"#)
        #expect(try g.accepts(text: "x"))
        #expect(try g.accepts(text: "x42"))
        #expect(try !g.accepts(text: "x4y"))
        #expect(try g.accepts(bytes: Array("x7".utf8)))
    }

    @Test func memberSetGrammarIsRefusedByTheReference() throws {
        var g = Grammar(root: .bytes(Array("a".utf8)))
        g.setMemberGuard(g.start, tracks: true)
        #expect(throws: ReferenceRecognizerError.memberSets(rule: "root")) { try g.accepts(text: "a") }
    }
}
