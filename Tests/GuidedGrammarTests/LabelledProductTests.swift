import Testing
@testable import GuidedGrammar

/// `LabelledProduct`: automata run side by side, accepting states labelled by which components accept.
@Suite struct LabelledProductTests {
    /// Lowercase words; names containing `ab` or `ba` (unanchored searches), minus the name `ab` itself.
    static func product() throws -> LabelledProduct {
        let letters = try ByteDFA(.repeat(.byteSet(ByteSet(Array(UInt8(ascii: "a")...UInt8(ascii: "z")))), min: 1, max: nil))
        let any = GrammarExpr.repeat(.byteSet(ByteSet(Array(UInt8(ascii: "a")...UInt8(ascii: "z")))), min: 0, max: nil)
        let ab = try ByteDFA(.sequence([any, .literal("ab"), any]))
        let ba = try ByteDFA(.sequence([any, .literal("ba"), any]))
        let name = try ByteDFA(.literal("ab"))
        // Label: bit 0 for `ab`, bit 1 for `ba`; names in neither part, and the name `ab`, do not accept.
        return try LabelledProduct([letters, name, ab, ba]) { accepts in
            guard accepts[0] && !accepts[1] else { return nil }
            let label = (accepts[2] ? 1 : 0) | (accepts[3] ? 2 : 0)
            return label == 0 ? nil : label
        }
    }

    static func label(_ p: LabelledProduct, _ text: String) -> Int?? {
        var s: Int32 = 0
        for b in text.utf8 {
            s = p.automaton.next(s, b)
            if s < 0 { return .none }
        }
        return .some(p.labels[Int(s)])
    }

    @Test func labelsSayWhichPartsMatch() throws {
        let p = try Self.product()
        #expect(Self.label(p, "xab") == .some(1))
        #expect(Self.label(p, "ba") == .some(2))
        #expect(Self.label(p, "aba") == .some(3))
        #expect(Self.label(p, "abba") == .some(3))
        // The excluded name, and a name in no part yet: live, not accepting.
        #expect(Self.label(p, "ab") == .some(nil))
        #expect(Self.label(p, "xyz") == .some(nil))
        // Outside the alphabet: dead.
        #expect(Self.label(p, "a1") == .none)
        for (s, l) in p.labels.enumerated() { #expect(p.automaton.accepting[s] == (l != nil)) }
    }

    /// Every state left can still reach an accepting one.
    @Test func statesThatCannotAcceptAreRemoved() throws {
        let letters = try ByteDFA(.repeat(.byteSet(ByteSet(Array(UInt8(ascii: "a")...UInt8(ascii: "c")))), min: 0, max: 3))
        let p = try LabelledProduct([letters]) { $0[0] ? 7 : nil }
        #expect(p.automaton.stateCount == 4)
        #expect(p.labels == [7, 7, 7, 7])
        let none = try LabelledProduct([letters]) { _ in nil }
        #expect(none.automaton.isEmpty)
    }
}
