import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// Special tokens written in grammar text — Lark's `<|call|>` and `<[25-26]>`, llama.cpp GBNF's `<…>`
/// and `<[id]>`, XGrammar EBNF's `Token(…)` — read as token terminals, and token terminals written back
/// by the export. Masks checked against the brute-force reference (`TokenLevelCheck`) over the small
/// vocabulary of `TokenTerminalTests` (25 text tokens; `<|call|>` 25, `<|end|>` 26, `<|im_start|>` 27
/// special; `</s>` 28 the end).
@Suite struct GrammarTextTokenTests {
    static let vocabulary = TokenTerminalTests.vocabulary
    static let call = 25, end = 26

    func check(_ grammar: Grammar) throws {
        var c = try TokenLevelCheck(grammar, vocabulary: Self.vocabulary)
        try c.run(walks: 30, steps: 8, seed: 5)
        #expect(c.mismatches.isEmpty, "\(c.mismatches)")
    }

    /// The tokens allowed after feeding `tokens`.
    func allowed(_ grammar: Grammar, after tokens: [Int]) throws -> [Int] {
        var m = GrammarMatcher(try MaskTestSupport.compiled(grammar, Self.vocabulary))
        for t in tokens { try m.accept(token: t) }
        return try MaskTestSupport.allowed(&m)
    }

    @Test func larkSpecialTokenByName() throws {
        let g = try Grammar(lark: "start: \"a\" <|call|> \"b\"")
        try check(g)
        #expect(try allowed(g, after: [0]) == [Self.call])
        #expect(try allowed(g, after: [0, Self.call]) == [1])
    }

    @Test func larkTokenIDsAndRanges() throws {
        let g = try Grammar(lark: "start: \"a\" <[25-26]> \"b\" <[26,25]>")
        try check(g)
        #expect(try allowed(g, after: [0]) == [Self.call, Self.end])
        #expect(try allowed(g, after: [0, Self.end, 1]) == [Self.call, Self.end])
    }

    @Test func larkSpecialTokensBetweenIgnoredWhitespace() throws {
        // %ignore applies after every lexeme, a special token included.
        let g = try Grammar(lark: "start: \"a\" <|call|> \"b\"\n%ignore \" \"")
        try check(g)
        #expect(try allowed(g, after: [0, Self.call]) == [1, 3])   // "b" or " "
    }

    @Test func gbnfTokenReferences() throws {
        let byName = try Grammar(gbnf: "root ::= \"a\" <|call|> \"b\"")
        let byID = try Grammar(gbnf: "root ::= \"a\" <[25]> \"b\"")
        for g in [byName, byID] {
            try check(g)
            #expect(try allowed(g, after: [0]) == [Self.call])
        }
    }

    @Test func ebnfTokenMacro() throws {
        let g = try Grammar(ebnf: "root ::= \"a\" Token(26, 25, 26) \"b\"")
        try check(g)
        #expect(try allowed(g, after: [0]) == [Self.call, Self.end])
    }

    static let tokens = Grammar(root: .sequence([.literal("a"), .token(.text("<|call|>")), .literal("b"), .token(.id(26))]))

    @Test func exportWritesTokensInEachLanguage() throws {
        #expect(try Self.tokens.exported(as: .gbnf).text == "root ::= \"a\" <|call|> \"b\" <[26]>\n")
        #expect(try Self.tokens.exported(as: .lark).text == "start: \"a\" <|call|> \"b\" <[26]>\n")
        let byID = Grammar(root: .sequence([.literal("a"), .token(.id(25)), .literal("b")]))
        #expect(try byID.exported(as: .ebnf).text == "root ::= \"a\" Token(25) \"b\"\n")
    }

    @Test func exportedTokensReadBackToTheSameMasks() throws {
        let original = try MaskTestSupport.compiled(Self.tokens, Self.vocabulary)
        let gbnf = try Grammar(gbnf: Self.tokens.exported(as: .gbnf).text)
        let lark = try Grammar(lark: Self.tokens.exported(as: .lark).text)
        for g in [gbnf, lark] {
            try check(g)
            let read = try MaskTestSupport.compiled(g, Self.vocabulary)
            for prefix in [[], [0], [0, Self.call], [0, Self.call, 1], [0, Self.call, 1, Self.end]] {
                var a = GrammarMatcher(original), b = GrammarMatcher(read)
                for t in prefix { try a.accept(token: t); try b.accept(token: t) }
                #expect(try MaskTestSupport.allowed(&a) == MaskTestSupport.allowed(&b))
            }
        }
    }

    @Test func exportRefusesWhatALanguageCannotName() throws {
        #expect(throws: GrammarExportError(.tokenNotWritable, rule: "root",
                                           "the token <<|call|>> is named by its text, and XGrammar's EBNF names tokens by id only (Token(id))")) {
            try Self.tokens.exported(as: .ebnf)
        }
        let bracketless = Grammar(root: .token(.text("[TOOL_CALLS]")))
        #expect(throws: GrammarExportError(.tokenNotWritable, rule: "root",
                                           "the token <[TOOL_CALLS]> can only be named by id here (<[id]>): its text is not of the form <…>")) {
            try bracketless.exported(as: .gbnf)
        }
        // A fuzz finding (2026-12-02): Lark's `<[1]A>` is the token with that text, which GBNF and Lark
        // would read back as a malformed token id.
        let idLike = try Grammar(lark: "start: <[1]A>")
        for format in [GrammarTextFormat.gbnf, .lark] {
            #expect(throws: GrammarExportError(.tokenNotWritable, rule: "start",
                                               "the token <<[1]A>> can only be named by id here (<[id]>): its text starts with <[, which reads as a token id")) {
                try idLike.exported(as: format)
            }
        }
        let marker = Grammar(root: .token(.marker("<tool_call>")))
        #expect(throws: GrammarExportError(.tokenNotWritable, rule: "root",
                                           "the token <<tool_call>?> stands for its text when the vocabulary has no such token: that depends on the vocabulary (write the grammar for one vocabulary, with the token's id)")) {
            try marker.exported(as: .lark)
        }
        var excluding = Grammar(root: .star(.literal("a")))
        excluding.excludedTokens = [.text("<|im_start|>")]
        #expect(throws: GrammarExportError(.tokenLevel, rule: "", "tokens excluded from the text (<<|im_start|>>) have no form in GBNF, Lark or EBNF")) {
            try excluding.exported(as: .gbnf)
        }
        let budget = Grammar(root: .tokenBudget(.star(.literal("a")), maxTokens: 4, then: .literal("b")))
        #expect(throws: GrammarExportError(.tokenLevel, rule: "root",
                                           "a token budget (at most N tokens, then what follows) has no form in GBNF, Lark or EBNF")) {
            try budget.exported(as: .lark)
        }
    }
}
