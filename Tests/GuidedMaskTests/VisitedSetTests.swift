import Testing
@testable import GuidedMask

/// The slice checks' scratch set against `Set`: same answers across many searches, through growth and
/// with keys left from earlier searches in the table.
@Suite struct VisitedSetTests {
    @Test func agreesWithSetAcrossSearches() {
        var v = VisitedSet()
        var rng = SplitMix64Generator(seed: 5)
        var mismatches = 0, countMismatches = 0, inserted = 0
        for round in 0..<300 {
            v.reset()
            var s = Set<Int>()
            let n = round % 7 == 0 ? 5_000 : Int(rng.next() % 600)
            for _ in 0..<n {
                let k = Int(rng.next() % 3_000) * 1_024 + round % 3
                let fresh = s.insert(k).inserted
                if v.insert(k) != fresh { mismatches += 1 }
                if fresh { inserted += 1 }
            }
            if v.count != s.count { countMismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(countMismatches == 0)
        #expect(inserted > 100_000)
    }
}
