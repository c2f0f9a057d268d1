import Testing
@testable import GuidedGrammar

/// `StateSetTable` numbers lists in the order stored and finds each again by content, across the growth
/// of its slot table; lists that share a prefix, or differ only in order, are different lists.
@Suite struct StateSetTableTests {
    func find(_ t: StateSetTable, _ list: [Int32]) -> Int32? {
        list.withUnsafeBufferPointer { t.find($0, hash: StateSetTable.hash($0)) }
    }

    func insert(_ t: inout StateSetTable, _ list: [Int32]) -> Int32 {
        list.withUnsafeBufferPointer { t.insert($0, hash: StateSetTable.hash($0)) }
    }

    @Test func numbersListsInOrderAndFindsThemByContent() {
        var t = StateSetTable()
        // 200 lists: the first slot table (64 slots) grows twice.
        let lists: [[Int32]] = [[], [0], [0, 1], [1, 0], [0, 1, 2]] + (0..<195).map { i in (0..<Int32(i % 7 + 1)).map { $0 * 1_000 + Int32(i) + 10 } }
        for (i, l) in lists.enumerated() {
            #expect(find(t, l) == nil, "\(l) before it is stored")
            #expect(insert(&t, l) == Int32(i))
        }
        #expect(t.count == lists.count)
        for (i, l) in lists.enumerated() {
            #expect(find(t, l) == Int32(i), "\(l)")
            #expect(Array(t.list(i)) == l)
        }
        #expect(find(t, [0, 1, 2, 3]) == nil)
        #expect(find(t, [2, 1, 0]) == nil)
    }
}
