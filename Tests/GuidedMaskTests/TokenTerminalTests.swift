import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// Token terminals, excluded tokens and free text with triggers, checked mask by mask against the
/// reference recognizer over every token of small vocabularies (`TokenLevelCheck`).
@Suite struct TokenTerminalTests {
    /// Text tokens (some spell the markers, some hold a marker mid-token), a non-special token whose bytes
    /// are `<call>` (like Qwen's added `<tool_call>`), special tokens `<|call|>`, `<|end|>`, `<|im_start|>`,
    /// and EOS `</s>`.
    static let vocabulary: TokenVocabulary = {
        let text = ["a", "b", "x", " ", "{", "}", "<", ">", "<c", "all>", "<call", "<call>", "x<call>{", "a<ca", "ll>{}",
                    "}a", "}<call>", "</", "</c", "</call>", "c", "l", "/", "ab", "{}"]
        let special = ["<|call|>", "<|end|>", "<|im_start|>"]
        var tokens = (text + special).map { Array($0.utf8) }
        tokens.append(Array("</s>".utf8))
        let first = text.count
        return TokenVocabulary(tokens: tokens, specialTokenIDs: Set(first..<tokens.count), eosTokenIDs: [tokens.count - 1])
    }()

    func check(_ grammar: Grammar, walks: Int = 40, steps: Int = 12, seed: UInt64 = 1) throws {
        var c = try TokenLevelCheck(grammar, vocabulary: Self.vocabulary)
        try c.run(walks: walks, steps: steps, seed: seed)
        #expect(c.mismatches.isEmpty, "\(c.mismatches)")
        #expect(c.checks > walks * Self.vocabulary.size)
    }

    @Test func specialTokenTerminalIsNeverItsSpelling() throws {
        // "a" then the special token <|call|> then "b": the bytes <|call|> spelled by other tokens do not match.
        let g = Grammar(root: .sequence([.literal("a"), .token(.text("<|call|>")), .literal("b")]))
        try check(g)
        var m = GrammarMatcher(try MaskTestSupport.compiled(g, Self.vocabulary))
        try m.accept(token: 0)
        let call = 25
        #expect(try MaskTestSupport.allowed(&m) == [call])
        try m.accept(token: call)
        #expect(try MaskTestSupport.allowed(&m) == [1])
    }

    @Test func nonSpecialTokenAsTerminalIsNotText() throws {
        // `<call>` (id 11) is an ordinary token; named as a terminal it is read only as itself, and text
        // may still spell its bytes with other tokens (`<c` + `all>`), but not use the token.
        var g = Grammar()
        let text = GrammarExpr.star(.byteSet(ByteSet(Array("abcl<>/{} x".utf8))))
        g.define(g.start, as: .sequence([text, .token(.text("<call>")), .literal("{}")]))
        try check(g)
        var m = GrammarMatcher(try MaskTestSupport.compiled(g, Self.vocabulary))
        let allowed = try MaskTestSupport.allowed(&m)
        #expect(allowed.contains(11))        // the terminal
        #expect(allowed.contains(8))         // "<c": text
        #expect(allowed.contains(12))        // "x<call>{": text that spells the marker's bytes
    }

    @Test func excludedTokensAreNeverText() throws {
        var g = Grammar(root: .star(.byteSet(ByteSet.all)))
        g.excludedTokens = [.text("<call>"), .text("<|im_start|>")]
        try check(g)
        var m = GrammarMatcher(try MaskTestSupport.compiled(g, Self.vocabulary))
        let allowed = try MaskTestSupport.allowed(&m)
        #expect(!allowed.contains(11))
        #expect(allowed.contains(10) && allowed.contains(8))
    }

    @Test func textTriggerInsideATokenIsExact() throws {
        // Free text until the text `<call>`, then `{` ... `}` and text again; the trigger may sit inside a
        // token ("x<call>{") or across tokens ("a<ca" + "ll>{}").
        var g = Grammar()
        let call = g.addRule(name: "call", body: .empty)
        let text = try g.addFreeText(FreeText(ends: [.init("<call>", then: .rule(call))], otherwise: .empty), name: "t")
        g.define(call, as: .sequence([.literal("{"), .star(.byteSet(ByteSet(Array("ab".utf8)))), .literal("}"), text]))
        g.define(g.start, as: text)
        try check(g, walks: 60, steps: 14)
    }

    @Test func tokenTriggerAndEndToken() throws {
        // Text until the special token <|call|>, a call, the special token <|end|>, and text again.
        var g = Grammar()
        let call = g.addRule(name: "call", body: .empty)
        let text = try g.addFreeText(FreeText(tokenEnds: [.init(.text("<|call|>"), then: .rule(call))], otherwise: .empty), name: "t")
        g.define(call, as: .sequence([.literal("{"), .star(.literal("a")), .literal("}"), .token(.text("<|end|>")), text]))
        g.define(g.start, as: text)
        try check(g, walks: 60, steps: 14)
    }

    @Test func choiceOfTags() throws {
        // Two tags that share the trigger `<`: `<call>{...}` and `</call>` free text; text may not contain `</`.
        var g = Grammar()
        let one = g.addRule(name: "one", body: .empty)
        let text = try g.addFreeText(FreeText(ends: [.init("<call>", then: .rule(one))], excluding: ["</"], otherwise: .empty), name: "t")
        g.define(one, as: .choice([.sequence([.literal("{}"), text]), .sequence([.literal("{a}"), text])]))
        g.define(g.start, as: text)
        try check(g, walks: 60, steps: 14)
    }

    @Test func boundedTextEndsByTheBound() throws {
        // At most 4 bytes of text, then `</call>`.
        var g = Grammar()
        let text = try g.addFreeText(FreeText(ends: [.init("</call>")], maxBytes: 4), name: "t")
        g.define(g.start, as: .sequence([.literal("<"), text]))
        try check(g, walks: 80, steps: 10)
        var m = GrammarMatcher(try MaskTestSupport.compiled(g, Self.vocabulary))
        for t in [6, 0, 1, 23] { try m.accept(token: t) }   // "<", then 4 bytes of text: "a" "b" "ab"
        // Only the end string may follow: "<", "</", "</c", "</call>" (not "<c", which would be text).
        #expect(try MaskTestSupport.allowed(&m) == [6, 17, 18, 19])
    }

    /// Structural tags compiled and checked the same way: a token trigger into calls whose arguments are a
    /// JSON Schema, with free text around them and a reasoning block under a budget (the budget's body
    /// checked here without its cut: `TokenBudgetTests` checks cuts).
    static let jsonVocabulary: TokenVocabulary = {
        let text = ["a", "b", " ", "{", "}", "\"", ":", "1", "2", "\"n\"", "\":", "{\"n\": ", "<", "/", ">", "</t>", "<t>", "ab"]
        let special = ["<|call|>", "<|end|>"]
        var tokens = (text + special).map { Array($0.utf8) }
        tokens.append(Array("</s>".utf8))
        return TokenVocabulary(tokens: tokens, specialTokenIDs: Set(text.count..<tokens.count), eosTokenIDs: [tokens.count - 1])
    }()

    @Test func structuralTagWithTokenTriggersAndJSON() throws {
        let call = StructuralTag.Tag(begin: .token(.text("<|call|>")),
                                     content: .jsonSchema(["type": "object", "properties": ["n": ["type": "integer", "maximum": 21]], "required": ["n"]]),
                                     end: .token(.text("<|end|>")))
        let tag = StructuralTag.sequence([
            .tag(.init(begin: "<t>", content: .anyText(.init()), end: "</t>")),
            .triggeredTags(.init(triggers: [.token(.text("<|call|>"))], tags: [call], excludes: ["<t>"])),
        ])
        let grammar = try StructuralTagCompiler.compile(tag, schemaOptions: JSONSchemaCompileOptions(whitespace: .bounded(maxRun: 1, inlineRun: 1)))
        var c = try TokenLevelCheck(grammar, vocabulary: Self.jsonVocabulary)
        try c.run(walks: 60, steps: 16, seed: 3)
        #expect(c.mismatches.isEmpty, "\(c.mismatches)")
    }

    @Test func unknownAndEndTokensAreClearErrors() throws {
        let tag = StructuralTag.tag(.init(begin: .token(.text("<|nope|>")), content: .constString("x"), end: "y"))
        let grammar = try StructuralTagCompiler.compile(tag)
        #expect(throws: GrammarCompileError.unknownToken("the vocabulary has no token '<|nope|>' (a special token named in the grammar must be one token)")) {
            try MaskTestSupport.compiled(grammar, Self.vocabulary)
        }
        #expect(throws: GrammarCompileError.unknownToken("token id 999 is outside the vocabulary (29 tokens)")) {
            try MaskTestSupport.compiled(Grammar(root: .token(.id(999))), Self.vocabulary)
        }
        #expect(throws: GrammarCompileError.endTokenInGrammar(token: 28)) {
            try MaskTestSupport.compiled(Grammar(root: .token(.text("</s>"))), Self.vocabulary)
        }
        // A marker the vocabulary lacks is its text.
        let marker = Grammar(root: .sequence([.token(.marker("<|nope|>")), .literal("a")]))
        var m = GrammarMatcher(try MaskTestSupport.compiled(marker, Self.vocabulary))
        try m.accept(bytes: Array("<|nope|>".utf8))
        #expect(try MaskTestSupport.allowed(&m) == [0])   // only "a" (then the end: "a<ca" and "ab" go past it)
    }
}
