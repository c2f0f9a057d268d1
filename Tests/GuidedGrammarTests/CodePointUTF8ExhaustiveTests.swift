import Testing
@testable import GuidedGrammar

/// The UTF-8 lowering of scalar sets, checked over every scalar, against an independent table of
/// well-formed UTF-8 (The Unicode Standard, table 3-7).
@Suite struct CodePointUTF8ExhaustiveTests {
    /// One well-formed UTF-8 character, written from table 3-7 independently of the lowering.
    static let wellFormedCharacter: GrammarExpr = {
        let cont = GrammarExpr.byteRange(0x80...0xBF)
        return .choice([
            .byteRange(0x00...0x7F),
            .sequence([.byteRange(0xC2...0xDF), cont]),
            .sequence([.byteRange(0xE0...0xE0), .byteRange(0xA0...0xBF), cont]),
            .sequence([.byteRange(0xE1...0xEC), cont, cont]),
            .sequence([.byteRange(0xED...0xED), .byteRange(0x80...0x9F), cont]),
            .sequence([.byteRange(0xEE...0xEF), cont, cont]),
            .sequence([.byteRange(0xF0...0xF0), .byteRange(0x90...0xBF), cont, cont]),
            .sequence([.byteRange(0xF1...0xF3), cont, cont, cont]),
            .sequence([.byteRange(0xF4...0xF4), .byteRange(0x80...0x8F), cont, cont]),
        ])
    }()

    static func sets() -> [(String, CodePointSet)] {
        var rng = DifferentialGenerator(seed: 7)
        var random: [ClosedRange<UInt32>] = []
        for _ in 0..<40 {
            let lo = UInt32(rng.next() % 0x110000)
            let len = UInt32(rng.next() % (rng.next() % 2 == 0 ? 300 : 70000))
            random.append(lo...min(0x10FFFF, lo + len))
        }
        return [
            ("all", .all),
            ("L", UnicodeProperties.set(named: "L")!),
            ("Nd", UnicodeProperties.set(named: "Nd")!),
            ("P|S", UnicodeProperties.set(named: "P")!.union(UnicodeProperties.set(named: "S")!)),
            ("ecma dot", RegexDialect.ecma262.dotSet),
            ("random ranges", CodePointSet(ranges: random)),
            ("boundaries", CodePointSet(ranges: [0x7F...0x80, 0x7FF...0x800, 0xD7FF...0xE000, 0xFFFF...0x10000, 0x10FFFF...0x10FFFF])),
        ]
    }

    @Test func allLowersToExactlyWellFormedUTF8() throws {
        let ours = try ByteDFA(CodePointSet.all.utf8Expression)
        let table = try ByteDFA(Self.wellFormedCharacter)
        #expect(try ours.isSubset(of: table))
        #expect(try table.isSubset(of: ours))
    }

    @Test func everyScalarAgreesWithMembership() throws {
        let wellFormed = try ByteDFA(Self.wellFormedCharacter)
        for (name, set) in Self.sets() {
            let dfa = try ByteDFA(set.utf8Expression)
            // Nothing outside well-formed single characters.
            #expect(try dfa.isSubset(of: wellFormed), "\(name) accepts malformed UTF-8")
            var mismatches = 0
            var bytes = [UInt8](repeating: 0, count: 4)
            for v: UInt32 in 0...0x10FFFF where !(0xD800...0xDFFF).contains(v) {
                let n = Self.encode(v, into: &bytes)
                var s: Int32 = 0
                for i in 0..<n where s >= 0 { s = dfa.next(s, bytes[i]) }
                let accepted = s >= 0 && dfa.accepting[Int(s)]
                if accepted != set.contains(v) { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(name): \(mismatches) scalars disagree")
        }
    }

    /// Encodes with bit operations written here, not the code under test.
    static func encode(_ v: UInt32, into b: inout [UInt8]) -> Int {
        if v < 0x80 { b[0] = UInt8(v); return 1 }
        if v < 0x800 { b[0] = 0xC0 | UInt8(v >> 6); b[1] = 0x80 | UInt8(v & 0x3F); return 2 }
        if v < 0x10000 {
            b[0] = 0xE0 | UInt8(v >> 12); b[1] = 0x80 | UInt8((v >> 6) & 0x3F); b[2] = 0x80 | UInt8(v & 0x3F); return 3
        }
        b[0] = 0xF0 | UInt8(v >> 18); b[1] = 0x80 | UInt8((v >> 12) & 0x3F)
        b[2] = 0x80 | UInt8((v >> 6) & 0x3F); b[3] = 0x80 | UInt8(v & 0x3F)
        return 4
    }
}

/// JSON string characters (`JSONText.chars`) after their UTF-8 sequences are suffix-factored.
@Suite struct JSONTextCharacterTests {
    /// One canonically spelled JSON string character, written from the JSON grammar and table 3-7:
    /// ASCII from U+0020 (DEL included) but `"` and `\`, the short escapes, `\u00xx` (lowercase hex)
    /// for the other control characters, and every well-formed multi-byte character.
    static let canonicalCharacter: GrammarExpr = {
        var plain = ByteSet(range: 0x20...0x7F)
        plain.remove(0x22); plain.remove(0x5C)
        var escapes: [GrammarExpr] = ["\\\"", "\\\\", "\\b", "\\f", "\\n", "\\r", "\\t"].map { .literal($0) }
        let hex = Array("0123456789abcdef".utf8)
        for c in 0..<0x20 where ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(c) {
            escapes.append(.bytes(Array("\\u00".utf8) + [hex[c >> 4], hex[c & 15]]))
        }
        guard case .choice(let all) = CodePointUTF8ExhaustiveTests.wellFormedCharacter else { return .nothing }
        return .choice([.byteSet(plain)] + escapes + Array(all.dropFirst()))
    }()

    @Test func anyCharIsExactlyOneCanonicalCharacter() throws {
        let ours = try ByteDFA(JSONText.anyChar)
        let table = try ByteDFA(Self.canonicalCharacter)
        #expect(try ours.isSubset(of: table))
        #expect(try table.isSubset(of: ours))
    }

    @Test func factoringKeepsTheLanguageAndSharesContinuations() throws {
        let sequences = JSONText.utf8Sequences(0x80, 0x10FFFF)
        let factored = JSONText.factorSuffixes(sequences)
        let before = try ByteDFA(.choice(sequences)), after = try ByteDFA(.choice(factored))
        #expect(try before.isSubset(of: after))
        #expect(try after.isSubset(of: before))
        // Every multi-byte sequence ends in a continuation byte: one alternative remains, ending in it.
        #expect(factored.count == 1)
        guard case .sequence(let parts)? = factored.first, case .byteSet(let last)? = parts.last else {
            Issue.record("expected a sequence ending in a byte set"); return
        }
        #expect(last == ByteSet(range: 0x80...0xBF))
    }
}
