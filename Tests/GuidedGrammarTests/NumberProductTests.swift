import Testing
import GuidedSchema
@testable import GuidedGrammar

/// The product of number automata (several `multipleOf`s, ranges) numbers its pairs through a flat
/// table or, past `flatPairs`, a dictionary; both must give the same automaton.
@Suite struct NumberProductTests {
    func spell(_ dfa: NumberDFA, _ text: String) -> Bool {
        var s: Int32 = 0
        for b in text.utf8 {
            guard let sym = (0..<NumberDFA.symbolCount).first(where: { NumberDFA.symbolBytes($0) == [b] }) else { return false }
            s = dfa.next[Int(s)][sym]
            if s < 0 { return false }
        }
        return dfa.accepting[Int(s)]
    }

    @Test func flatAndHashedProductsAgree() throws {
        let three = try #require(NumberScanners.multiple(of: JSONNumber(3), maxModulus: 1_000, limit: 10_000))
        let five = try #require(NumberScanners.multiple(of: JSONNumber(5), maxModulus: 1_000, limit: 10_000))
        let flat = try #require(three.intersect(five, limit: 10_000))
        let hashed = try #require(three.intersect(five, limit: 10_000, flatPairs: 0))
        #expect(flat.next == hashed.next)
        #expect(flat.accepting == hashed.accepting)
        for n in [0, 15, 30, 45, 150, -15] { #expect(spell(flat, String(n)), "\(n)") }
        for n in [3, 5, 10, 9, 16, 151] { #expect(!spell(flat, String(n)), "\(n)") }
        // The state limit holds on both paths.
        #expect(three.intersect(five, limit: 2) == nil)
        #expect(three.intersect(five, limit: 2, flatPairs: 0) == nil)
    }
}
