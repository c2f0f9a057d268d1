import Testing
@testable import GuidedGrammar

/// `Grammar` → text → `Grammar` accepts exactly the same strings, for every grammar in `Grammars/`, in
/// each of the three languages: at least 1,000 distinct strings each (sentences of both sides and near
/// misses of them), judged by the reference recognizer.
@Suite struct ExportRoundTripTests {
    static func read(_ text: String, _ format: GrammarTextFormat) throws -> Grammar {
        switch format {
        case .gbnf: return try Grammar(gbnf: text)
        case .ebnf: return try Grammar(ebnf: text)
        case .lark: return try Grammar(lark: text)
        }
    }

    static let cases: [(String, GrammarTextFormat)] = GrammarFiles.names.flatMap { n in GrammarTextFormat.allCases.map { (n, $0) } }

    @Test(arguments: cases)
    func grammarFileRoundTrip(_ name: String, _ format: GrammarTextFormat) throws {
        let grammar = try Grammar(gbnf: try GrammarFiles.text(name))
        let exported = try grammar.exported(as: format)
        let back = try Self.read(exported.text, format)
        let report = try GrammarDifferential.compare(grammar, back, strings: 1000, seed: 7)
        #expect(report.strings >= 1000)
        #expect(report.acceptedByBoth >= 100, "too few sentences to mean much: \(report.acceptedByBoth)")
        #expect(report.agrees, "\(report.disagreementCount) disagreements, e.g. \(report.disagreements.prefix(3).map { (String(decoding: $0.text, as: UTF8.self), $0.acceptedByFirst) })\n\(exported.text)")
    }

    /// A bound past the reference recognizer's expansion limit (`maxLength: 1000000` in 4 maskbench-dev
    /// schemas) is compared anyway: on strings shorter than the bound, `x{0,1000000}` and `x*` agree.
    @Test func largeUpperBoundsAreComparedOnShortStrings() throws {
        let large = try Grammar(gbnf: "root ::= [a-c]{0,1000000} \"!\"")
        #expect(throws: ReferenceRecognizerError.repeatTooLarge(min: 0, max: 1_000_000, limit: 100_000)) {
            try ReferenceRecognizer(large)
        }
        let same = try GrammarDifferential.compare(large, try Grammar(gbnf: "root ::= [a-c]* \"!\""), strings: 300, seed: 2)
        #expect(same.agrees)
        #expect(same.acceptedByBoth >= 50)
        let other = try GrammarDifferential.compare(large, try Grammar(gbnf: "root ::= [a-c]{0,5} \"!\""), strings: 300, seed: 2)
        #expect(!other.agrees)
        #expect(other.disagreements.allSatisfy { $0.acceptedByFirst && $0.text.count > 6 })
    }
}
