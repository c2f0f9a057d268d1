import Testing
@testable import GuidedMask

/// The raw growable list behind the plain-text proof's tables (`ScratchList`): growth keeps what was
/// written, repeated appends and fills write exactly their range, and a table made at its full size is
/// written through the subscript without growing.
@Suite struct ScratchListTests {
    @Test func growthKeepsTheElements() {
        var list = ScratchList<Int32>(capacity: 1)
        for k in 0..<1_000 { list.append(Int32(k)) }
        #expect(list.count == 1_000)
        #expect((0..<1_000).allSatisfy { list[$0] == Int32($0) })
        list.append(-1, times: 3)
        #expect(list.count == 1_003 && list[999] == 999 && list[1_000] == -1 && list[1_002] == -1)
        list.removeLast()
        #expect(list.count == 1_002)
        list.removeAll()
        #expect(list.count == 0)
        list.append(7)
        #expect(list.count == 1 && list[0] == 7)
    }

    @Test func tablesAreWrittenInPlace() {
        let table = ScratchList<UInt8>(repeating: 2, count: 5)
        #expect(table.count == 5 && (0..<5).allSatisfy { table[$0] == 2 })
        table[3] = 9
        #expect(table[3] == 9 && table[2] == 2 && table[4] == 2)
        table.fill(0)
        #expect((0..<5).allSatisfy { table[$0] == 0 })
        let empty = ScratchList<Int32>(repeating: -1, count: 0)
        #expect(empty.count == 0)
    }
}
