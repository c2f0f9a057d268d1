import Testing
@testable import GuidedGrammar

@Suite struct CodePointSetTests {
    @Test func normalizationMergesAndDropsSurrogates() {
        let s = CodePointSet(ranges: [0x61...0x63, 0x60...0x61, 0x65...0x65, 0x64...0x64, 0xD000...0xE010, 0x110000...0x110005])
        #expect(s.ranges == [0x60...0x65, 0xD000...0xD7FF, 0xE000...0xE010])
        #expect(CodePointSet(0xD800).isEmpty)
        #expect(CodePointSet.all.count == 0x110000 - 0x800)
    }

    @Test func setAlgebra() {
        let az = CodePointSet(ranges: [0x61...0x7A])
        let vowels = CodePointSet(ranges: [0x61...0x61, 0x65...0x65, 0x69...0x69, 0x6F...0x6F, 0x75...0x75])
        #expect(az.intersection(vowels) == vowels)
        #expect(az.subtracting(vowels).count == 21)
        #expect(az.union(vowels) == az)
        #expect(az.complement().complement() == az)
        #expect(az.complement().count == CodePointSet.all.count - 26)
        #expect(!az.complement().contains(0x61) && az.complement().contains(0x60) && az.complement().contains(0x7B))
        #expect(CodePointSet.empty.complement() == .all)
        #expect(CodePointSet.all.complement().isEmpty)
        #expect(az.contains(0x6D) && !az.contains(0x41))
    }

    @Test func utf8SequencesOfBoundaries() {
        #expect(CodePointSet(ranges: [0...0x10FFFF]).utf8Sequences == [
            [0x00...0x7F],
            [0xC2...0xDF, 0x80...0xBF],
            [0xE0...0xE0, 0xA0...0xBF, 0x80...0xBF],
            [0xE1...0xEC, 0x80...0xBF, 0x80...0xBF],
            [0xED...0xED, 0x80...0x9F, 0x80...0xBF],
            [0xEE...0xEF, 0x80...0xBF, 0x80...0xBF],
            [0xF0...0xF0, 0x90...0xBF, 0x80...0xBF, 0x80...0xBF],
            [0xF1...0xF3, 0x80...0xBF, 0x80...0xBF, 0x80...0xBF],
            [0xF4...0xF4, 0x80...0x8F, 0x80...0xBF, 0x80...0xBF],
        ])
        #expect(CodePointSet(0xE9).utf8Expression == .bytes([0xC3, 0xA9]))
        #expect(CodePointSet.empty.utf8Expression == .nothing)
    }

    @Test func generalCategories() {
        let lu = UnicodeProperties.set(named: "Lu")!
        #expect(lu.contains(0x41) && !lu.contains(0x61) && lu.contains(0xC9))
        #expect(UnicodeProperties.set(named: "Uppercase_Letter") == lu)
        #expect(UnicodeProperties.set(named: "gc=Lu") == lu)
        let l = UnicodeProperties.set(named: "L")!
        #expect(l.intersection(lu) == lu)
        #expect(UnicodeProperties.set(named: "Nd")!.contains(0x0663))
        #expect(UnicodeProperties.set(named: "Zs")!.contains(0x3000))
        #expect(UnicodeProperties.set(named: "Script=Latin") == nil)
        #expect(UnicodeProperties.set(named: "Xx") == nil)
    }
}
