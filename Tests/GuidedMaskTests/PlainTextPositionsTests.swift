import Testing
import GuidedGrammar
@testable import GuidedMask

/// The positions of plain text by class, as the plain-text proof reads them: per position the classes
/// read, where each leads, and the one next position of a class (none where a class leads to two).
@Suite struct PlainTextPositionsTests {
    @Test func positionsByClass() {
        let edges: [[(cls: Int, u: UInt8)]] = [[(0, 0), (1, 0), (2, 1), (3, 1), (3, 2)], [(4, 0)]]
        let positions = PlainTextPositions(edges, classCount: 5)
        #expect(positions.read[0] == ByteSet([0, 1, 2, 3]))
        #expect(positions.groupStart == [0, 3, 4])
        #expect(positions.groupNext == [0, 1, 2, 0])
        #expect(positions.groupClasses == [ByteSet([0, 1]), ByteSet([2, 3]), ByteSet([3]), ByteSet([4])])
        #expect(positions.soleNext[0 * 5 + 1] == 0 && positions.soleNext[0 * 5 + 2] == 1)
        #expect(positions.soleNext[0 * 5 + 3] == PlainTextPositions.noPosition, "class 3 leads to 1 and to 2")
        #expect(positions.soleNext[0 * 5 + 4] == PlainTextPositions.noPosition, "class 4 is not read at 0")
        #expect(positions.soleNext[1 * 5 + 4] == 0)
        #expect(positions.madeFrom(edges) && !positions.madeFrom([edges[0]]))
    }
}
