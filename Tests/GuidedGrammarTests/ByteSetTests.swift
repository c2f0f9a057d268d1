import Testing
import GuidedGrammar

/// Set operations over all four words: membership, the lowest member and "exactly one".
@Suite struct ByteSetTests {
    @Test(arguments: [0, 1, 63, 64, 127, 128, 191, 192, 255] as [UInt8])
    func oneMemberInAnyWord(b: UInt8) {
        var set = ByteSet()
        #expect(set.isEmpty && !set.isSingle && set.lowest == nil)
        set.insert(b)
        #expect(set.contains(b) && !set.contains(b &+ 1))
        #expect(set.isSingle && set.lowest == b && set.count == 1)
        // A second member, in the same word or another, is no longer one.
        var two = set
        two.insert(b &+ 1)
        #expect(!two.isSingle)
        two = set
        two.insert(b &+ 64)
        #expect(!two.isSingle && two.lowest == min(b, b &+ 64))
        #expect(two.intersection(set.complement()).lowest == b &+ 64)
        #expect(two.intersection(set) == set && set.union(two) == two)
    }
}
