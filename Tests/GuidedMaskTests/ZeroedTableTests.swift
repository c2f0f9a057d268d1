import Testing
@testable import GuidedMask

/// The per-NFA-state tables of the first-visit proofs (`ZeroedTable`): small ones allocated and set to
/// zeros, large ones mapped (untouched pages read as zeros); both hold what is written and clear to zeros.
@Suite struct ZeroedTableTests {
    @Test(arguments: [2, 1_000, ZeroedTable<Int32>.mappingThreshold / 4 + 1, 3_000_000])
    func readsZerosHoldsWritesAndClears(count: Int) {
        let table = ZeroedTable<Int32>(count: count)
        #expect(table.count == count)
        #expect(table[0] == 0 && table[count / 2] == 0 && table[count - 1] == 0)
        table[0] = 7
        table[count - 1] = -3
        #expect(table[0] == 7 && table[count - 1] == -3)
        if count > 2 { #expect(table[count / 2] == 0) }
        table.clear()
        #expect(table[0] == 0 && table[count - 1] == 0)
    }
}
