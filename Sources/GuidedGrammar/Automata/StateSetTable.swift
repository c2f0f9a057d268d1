/// Lists of automaton states (a subset construction's sets and kernels, a product's tuples), each
/// numbered 0, 1, 2, ... in the order first stored, and found again by content.
///
/// The lists live back to back in one array and are found through an open-addressed table of their
/// numbers, hashed with a multiply-xorshift over the elements. Keyed by the lists in a `Dictionary`,
/// every lookup seeded a SipHash and every stored list was an array of its own: the hashing and the
/// probing were about 40 % of building a `pattern`'s automaton by subset construction.
struct StateSetTable {
    private var store: [Int32] = []
    /// List i is `store[start[i] ..< start[i + 1]]`.
    private var start: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Number plus one of the list in each slot, 0 for an empty slot; a power of two long.
    private var slots = [Int32](repeating: 0, count: 64)

    var count: Int { hashes.count }

    /// The hash `find` and `insert` expect for `list`.
    static func hash(_ list: UnsafeBufferPointer<Int32>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(list.count)
        for x in list {
            h = (h ^ UInt64(UInt32(bitPattern: x))) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
        }
        return h ^ (h >> 32)
    }

    /// The number of `list` (hashed as `hash`), or nil when it is not stored.
    func find(_ list: UnsafeBufferPointer<Int32>, hash: UInt64) -> Int32? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash && start[id + 1] - start[id] == list.count && equals(id, list) { return Int32(id) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Stores `list`, which `find` did not find, as the next number, and returns that number.
    @discardableResult
    mutating func insert(_ list: UnsafeBufferPointer<Int32>, hash: UInt64) -> Int32 {
        let id = Int32(hashes.count)
        store.append(contentsOf: list)
        start.append(store.count)
        hashes.append(hash)
        if hashes.count * 2 > slots.count { grow() } else { place(id, hash) }
        return id
    }

    /// The elements of list `id`.
    func list(_ id: Int) -> ArraySlice<Int32> { store[start[id] ..< start[id + 1]] }

    private func equals(_ id: Int, _ list: UnsafeBufferPointer<Int32>) -> Bool {
        store.withUnsafeBufferPointer { all in
            let base = start[id]
            for k in 0..<list.count where all[base + k] != list[k] { return false }
            return true
        }
    }

    private mutating func place(_ id: Int32, _ hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = id + 1
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        for id in 0..<hashes.count { place(Int32(id), hashes[id]) }
    }
}
