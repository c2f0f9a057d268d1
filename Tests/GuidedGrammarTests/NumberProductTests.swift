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
            s = dfa.next(Int(s), sym)
            if s < 0 { return false }
        }
        return dfa.accepting[Int(s)]
    }

    /// Whether no two states of `dfa` accept the same language (the table-filling algorithm: a pair is
    /// distinguished when one accepts and the other does not, or some symbol leads them to a distinguished
    /// pair or to one state and the dead end), every state live.
    func isMinimal(_ dfa: NumberDFA) -> Bool {
        let n = dfa.stateCount
        var differs = [[Bool]](repeating: [Bool](repeating: false, count: n), count: n)
        for p in 0..<n { for q in 0..<n where dfa.accepting[p] != dfa.accepting[q] { differs[p][q] = true } }
        var changed = true
        while changed {
            changed = false
            for p in 0..<n {
                for q in 0..<n where p != q && !differs[p][q] {
                    for sym in 0..<NumberDFA.symbolCount {
                        let a = Int(dfa.next(p, sym)), b = Int(dfa.next(q, sym))
                        if (a < 0) != (b < 0) || (a >= 0 && differs[a][b]) { differs[p][q] = true; changed = true; break }
                    }
                }
            }
        }
        for p in 0..<n { for q in 0..<n where p != q && !differs[p][q] { return false } }
        return true
    }

    @Test func flatAndHashedProductsAgree() throws {
        let three = try #require(NumberScanners.multiple(of: JSONNumber(3), maxModulus: 1_000, limit: 10_000))
        let five = try #require(NumberScanners.multiple(of: JSONNumber(5), maxModulus: 1_000, limit: 10_000))
        let flat = try #require(three.intersect(five, limit: 10_000))
        let hashed = try #require(three.intersect(five, limit: 10_000, flatPairs: 0))
        #expect(flat.table == hashed.table)
        #expect(flat.accepting == hashed.accepting)
        for n in [0, 15, 30, 45, 150, -15] { #expect(spell(flat, String(n)), "\(n)") }
        for n in [3, 5, 10, 9, 16, 151] { #expect(!spell(flat, String(n)), "\(n)") }
        // The state limit holds on both paths.
        #expect(three.intersect(five, limit: 2) == nil)
        #expect(three.intersect(five, limit: 2, flatPairs: 0) == nil)
    }

    /// Minimization is canonical: the product of "multiple of 3" and "multiple of 5", minimized, is
    /// state for state the minimized "multiple of 15" (both numbered breadth first from the start).
    @Test func minimizedProductsAreTheCanonicalAutomaton() throws {
        let three = try #require(NumberScanners.multiple(of: JSONNumber(3), maxModulus: 1_000, limit: 10_000))
        let five = try #require(NumberScanners.multiple(of: JSONNumber(5), maxModulus: 1_000, limit: 10_000))
        let fifteen = try #require(NumberScanners.multiple(of: JSONNumber(15), maxModulus: 1_000, limit: 10_000))
        let product = try #require(three.intersect(five, limit: 10_000)).minimized()
        #expect(product == fifteen.minimized())
        #expect(isMinimal(product))
        // Remainders modulo 10 differ only in whether the last digit is 0: minimized, they merge.
        let ten = try #require(NumberScanners.multiple(of: JSONNumber(10), maxModulus: 1_000, limit: 10_000))
        let tenMinimal = ten.minimized()
        #expect(isMinimal(tenMinimal))
        #expect(!isMinimal(ten))
        for text in ["0", "10", "-250", "1000", "10.0", "0.00"] { #expect(spell(tenMinimal, text), "\(text)") }
        for text in ["1", "15", "-251", "10.5", "01"] { #expect(!spell(tenMinimal, text), "\(text)") }
        #expect(product.stateCount < three.intersect(five, limit: 10_000)!.stateCount)
    }

    /// A range between bounds of 309 digits (`minimum: -1.79769e+308`, `maximum: 1.79769e+308`) is a
    /// chain of states per digit position; minimized, it keeps its language (checked on literals at and
    /// around the bounds) and minimizing again changes nothing (minimality itself is checked on the small
    /// automata above: the table-filling check takes seconds at this size).
    @Test func aRangeOfLongBoundsMinimizesExactly() throws {
        let bound = try #require(JSONNumber(literal: "1.79769e308"))
        let negative = try #require(JSONNumber(literal: "-1.79769e308"))
        let upper = try #require(NumberScanners.compare(.lessOrEqual, bound, limit: 100_000))
        let lower = try #require(NumberScanners.compare(.greaterOrEqual, negative, limit: 100_000))
        let bounded = try #require(upper.intersect(lower, limit: 100_000))
        let range = try #require(NumberScanners.syntax(fraction: true, exponent: false).intersect(bounded, limit: 100_000))
        let minimal = range.minimized()
        #expect(minimal.minimized() == minimal)
        #expect(minimal.stateCount < range.stateCount)
        let zeros = String(repeating: "0", count: 303)
        let inside = ["0", "-0", "12.5", "179769" + zeros, "-179769" + zeros, "179768" + zeros + ".999",
                      "17976" + zeros + "0", "1" + String(repeating: "0", count: 300)]
        let outside = ["179769" + zeros + ".0001", "179770" + zeros, "-179769" + zeros + "1", "1" + zeros + "0000000",
                       "01", "1.", "-", ""]
        for text in inside { #expect(spell(range, text) && spell(minimal, text), "\(text.prefix(12))… (\(text.count))") }
        for text in outside { #expect(!spell(range, text) && !spell(minimal, text), "\(text.prefix(12))… (\(text.count))") }
    }
}
