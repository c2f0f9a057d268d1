import Testing
@testable import GuidedMask

/// The arena behind the automaton builder's per-state sets and rows (`BumpArena`): runs follow each
/// other in a chunk and never move, a shortened run gives its room to the next one, a run larger than a
/// quarter chunk gets an allocation of its own, and `bytes` counts what was allocated.
@Suite struct BumpArenaTests {
    /// 32 KiB of `Int32`.
    let chunk = 8_192

    @Test func runsFollowEachOtherAndKeepTheirValues() {
        let arena = BumpArena<Int32>()
        let a = arena.take(3)
        a.initialize(from: [1, 2, 3], count: 3)
        let b = arena.take(2)
        b.initialize(from: [4, 5], count: 2)
        #expect(b == a + 3)
        #expect(arena.bytes == chunk * 4)
        // Fill the rest of the chunk: the next run opens a second chunk, the first runs stay put.
        var runs: [UnsafeMutablePointer<Int32>] = []
        for k in 0..<(chunk - 5) / 1_000 {
            let r = arena.take(1_000)
            r.initialize(repeating: Int32(k), count: 1_000)
            runs.append(r)
        }
        let last = arena.take(1_000)
        #expect(arena.bytes == 2 * chunk * 4)
        #expect(last != runs.last! + 1_000)
        #expect(Array(UnsafeBufferPointer(start: a, count: 5)) == [1, 2, 3, 4, 5])
        #expect(runs.enumerated().allSatisfy { k, r in UnsafeBufferPointer(start: r, count: 1_000).allSatisfy { $0 == Int32(k) } })
    }

    @Test func aShortenedRunGivesItsRoomToTheNext() {
        let arena = BumpArena<UInt16>()
        let a = arena.take(100)
        arena.shortenLast(by: 60)
        let b = arena.take(10)
        #expect(b == a + 40)
    }

    @Test func aLargeRunHasItsOwnAllocation() {
        let arena = BumpArena<Int32>()
        let small = arena.take(10)
        let large = arena.take(chunk / 4 + 1)
        large.initialize(repeating: 7, count: chunk / 4 + 1)
        #expect(arena.bytes == chunk * 4 + (chunk / 4 + 1) * 4)
        // Shortening it changes nothing, and the chunk goes on where it was.
        arena.shortenLast(by: 100)
        #expect(arena.take(5) == small + 10)
        #expect(UnsafeBufferPointer(start: large, count: chunk / 4 + 1).allSatisfy { $0 == 7 })
    }
}
