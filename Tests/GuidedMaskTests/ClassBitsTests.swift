import Testing
@testable import GuidedMask

/// Class sets of the plain-text proof: membership, the lowest class and "exactly one" across all four
/// words, and positions by class from a proof's slice edges.
@Suite struct ClassBitsTests {
    @Test(arguments: [0, 1, 63, 64, 127, 128, 191, 192, 255])
    func oneClassInAnyWord(c: Int) {
        var bits = ClassBits()
        #expect(bits.isEmpty && !bits.isSingle)
        bits.insert(c)
        #expect(bits.contains(c) && !bits.contains((c + 1) % 256))
        #expect(bits.isSingle && bits.first == c)
        // A second class, in the same word or another, is no longer one.
        var two = bits
        two.insert((c + 1) % 256)
        #expect(!two.isSingle)
        two = bits
        two.insert((c + 64) % 256)
        #expect(!two.isSingle && two.first == min(c, (c + 64) % 256))
        #expect((two & ~bits).first == (c + 64) % 256)
        #expect((two & bits) == bits && (bits | two) == two)
    }

    /// Per position: the classes read, where each leads, and the one next position of a class (none
    /// where a class leads to two).
    @Test func positionsByClass() {
        let edges: [[(cls: Int, u: UInt8)]] = [[(0, 0), (1, 0), (2, 1), (3, 1), (3, 2)], [(4, 0)]]
        let positions = PlainTextPositions(edges, classCount: 5)
        var read0 = ClassBits()
        for c in 0...3 { read0.insert(c) }
        #expect(positions.read[0] == read0)
        #expect(positions.groupStart == [0, 3, 4])
        #expect(positions.groupNext == [0, 1, 2, 0])
        #expect(positions.soleNext[0 * 5 + 1] == 0 && positions.soleNext[0 * 5 + 2] == 1)
        #expect(positions.soleNext[0 * 5 + 3] == PlainTextPositions.noPosition, "class 3 leads to 1 and to 2")
        #expect(positions.soleNext[0 * 5 + 4] == PlainTextPositions.noPosition, "class 4 is not read at 0")
        #expect(positions.soleNext[1 * 5 + 4] == 0)
        #expect(positions.madeFrom(edges) && !positions.madeFrom([edges[0]]))
    }
}
