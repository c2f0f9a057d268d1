import Foundation
import Testing
@testable import GuidedGrammar

/// Random regexes in the subset where ECMA-262 (u flag), ICU (`NSRegularExpression`) and our lowering
/// agree (no line terminators in the texts, ASCII-only `\d` digits, no `\s`/`\w`), checked on random
/// texts: the lowered search language must accept exactly the texts ICU finds a match in.
@Suite struct RegexOracleTests {
    static let atoms = ["a", "b", "é", "😀", "0", "-", "[ab]", "[^a]", "[a-é]", "[^-0]", "\\d", "\\D", ".",
                        "\\x61", "\\u00e9", "\\-", "[\\s\\S]", "[\\p{Ll}0]"]
    static let quantifiers = ["", "", "", "?", "*", "+", "{2}", "{1,2}", "{0,}", "*?", "+?", "{0,3}"]
    static let alphabet = ["a", "b", "é", "😀", "0", "-", "z"]

    static func pick<T>(_ xs: [T], _ rng: inout DifferentialGenerator) -> T { xs[Int(rng.next() % UInt64(xs.count))] }

    static func regex(_ rng: inout DifferentialGenerator, depth: Int) -> String {
        var alternatives: [String] = []
        for _ in 0...(rng.next() % 3 == 0 ? 1 : 0) {
            var seq = ""
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                if depth < 2 && rng.next() % 5 == 0 {
                    // Groups get only bounded quantifiers: ICU's backtracker gives up (reports no
                    // match) on nested unbounded loops over empty-matching bodies, e.g. `((a*)*?)*?`.
                    seq += (rng.next() % 2 == 0 ? "(?:" : "(") + regex(&rng, depth: depth + 1) + ")"
                    seq += pick(["", "?", "{2}", "{1,2}"], &rng)
                } else {
                    seq += pick(atoms, &rng) + pick(quantifiers, &rng)
                }
            }
            if depth == 0 && rng.next() % 3 == 0 { seq = "^" + seq }
            if depth == 0 && rng.next() % 3 == 0 { seq += "$" }
            alternatives.append(seq)
        }
        return alternatives.joined(separator: "|")
    }

    @Test func randomRegexesAgreeWithNSRegularExpression() throws {
        var rng = DifferentialGenerator(seed: 2024)
        var checked = 0, matched = 0, skipped = 0
        for _ in 0..<100 {
            let pattern = Self.regex(&rng, depth: 0)
            let icu = try NSRegularExpression(pattern: pattern)
            // Unicode classes make byte DFAs large; a pattern over the test's state budget is skipped.
            guard let ours = try? ByteDFA(RegexLowering.compile(pattern, dialect: .ecma262), limits: AutomatonLimits(maxDFAStates: 3_000)) else {
                skipped += 1
                continue
            }
            for _ in 0..<60 {
                var text = ""
                for _ in 0..<Int(rng.next() % 6) { text += Self.pick(Self.alphabet, &rng) }
                let expected = icu.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(ours.matches(text) == expected, "/\(pattern)/ on \(text.debugDescription)")
                checked += 1
                if expected { matched += 1 }
            }
        }
        // The texts must exercise both outcomes.
        #expect(matched > checked / 5 && matched < checked * 4 / 5)
        #expect(skipped < 10)
    }
}
