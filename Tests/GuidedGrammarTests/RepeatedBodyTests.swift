import Testing
@testable import GuidedGrammar

/// A counted repeat's body is built once as its minimal DFA and copied (`ByteNFA+RepeatedBodies`): the
/// language is the one of the plain Thompson copies, from far fewer NFA states.
@Suite struct RepeatedBodyTests {
    static let patterns = [
        #"^(?:\S+\s+){0,29}\S+$"#, #"^$|(^(?:\S+\s+){0,9}\S+$)"#, #"^(ab|a){3,5}$"#, #"(a|b)*c{2,4}"#,
        #"^([0-9]{1,3}\.){3}[0-9]{1,3}$"#, #"^(?:(?:\w|é)+-?){2,6}$"#, #"x{0,3}"#, #"^(a{2}){3}$"#, #"((ab){2,3}){3}"#,
    ]

    static func content(_ pattern: String) throws -> GrammarExpr {
        try RegexLowering.compile(pattern, dialect: .ecma262, encoder: { JSONText.chars($0.ranges) })
    }

    /// `e` with every counted repeat written out as copies and nested options, which the NFA builds one
    /// Thompson copy at a time.
    static func expanded(_ e: GrammarExpr) -> GrammarExpr {
        switch e {
        case .sequence(let parts): return .sequence(parts.map(expanded))
        case .choice(let alts): return .choice(alts.map(expanded))
        case .repeat(let inner, let lo, let hi):
            let body = expanded(inner)
            let mandatory = [GrammarExpr](repeating: body, count: lo)
            guard let hi else { return .sequence(mandatory + [.repeat(body, min: 0, max: nil)]) }
            var optional = GrammarExpr.empty
            for _ in lo..<hi { optional = .choice([.empty, .sequence([body, optional])]) }
            return .sequence(mandatory + [optional])
        default: return e
        }
    }

    @Test(arguments: patterns)
    func theLanguageIsThatOfThePlainCopies(_ pattern: String) throws {
        let e = try Self.content(pattern)
        let plain = try ByteNFA(Self.expanded(e), grammar: nil, limits: .default)
        let compiled = try ByteNFA(e, grammar: nil, limits: .default)
        #expect(try ByteDFA.subsetConstruction(compiled, limit: 100_000).minimized()
                == ByteDFA.subsetConstruction(plain, limit: 100_000).minimized())
        #expect(compiled.stateCount <= plain.stateCount)
    }

    /// Thirty copies of a word and a space in JSON string text (each character a UTF-8 sequence or an
    /// escape): 8,934 NFA states written out copy by copy, 1,801 as copies of the body's minimal DFA.
    @Test func countedWordsTakeFewStates() throws {
        let e = try Self.content(Self.patterns[0])
        let plain = try ByteNFA(Self.expanded(e), grammar: nil, limits: .default).stateCount
        let compiled = try ByteNFA(e, grammar: nil, limits: .default).stateCount
        #expect(plain == 8_934)
        #expect(compiled == 1_801)
    }

    /// A body that refers to the rule being built is still refused as recursion.
    @Test func recursionThroughARepeatedBodyIsRefused() throws {
        var g = Grammar()
        let r = g.declareRule(name: "r")
        g.define(r, as: .choice([.bytes([0x61]), .repeat(.sequence([.bytes([0x62]), .rule(r)]), min: 0, max: 4)]))
        #expect(throws: AutomatonError.self) { try ByteNFA(.rule(r), grammar: g, limits: .default) }
    }
}
