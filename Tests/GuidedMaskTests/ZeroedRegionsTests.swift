import Testing
@testable import GuidedMask

/// The pool of zeroed table regions: whatever a previous user wrote, a region taken again reads as zeros.
@Suite struct ZeroedRegionsTests {
    /// Writes `written` elements, gives the region back, takes one of the same size and checks every
    /// element the first user could have written. Run for a short range (cleared in place) and a long
    /// one (returned to the kernel page by page).
    @Test(arguments: [1_000, 600_000])
    func reusedRegionsReadAsZeros(written: Int) throws {
        let count = 1 << 21
        // Fill the pool with dirty regions first, so the next take is likely a reused one.
        var given: [UnsafeMutablePointer<Int32>] = []
        for _ in 0..<4 {
            let p = try #require(ZeroedRegions.take(count, of: Int32.self))
            for i in 0..<written { p[i] = Int32(i | 1) }
            given.append(p)
        }
        for p in given { ZeroedRegions.give(p, written: written) }
        for _ in 0..<4 {
            let q = try #require(ZeroedRegions.take(count, of: Int32.self))
            var nonZero = 0
            for i in 0..<written where q[i] != 0 { nonZero += 1 }
            #expect(nonZero == 0)
            #expect(q[count - 1] == 0)
            ZeroedRegions.give(q, written: 0)
        }
    }
}
