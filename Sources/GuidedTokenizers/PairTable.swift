/// Hugging Face merges as an open-addressing hash table: `(left id, right id)` → `(rank, merged id)`.
/// Immutable after `init`; raw storage so the encode loop looks pairs up without dictionary overhead.
struct PairTable: Sendable {
    /// `@unchecked Sendable`: written only in `init`, read-only afterwards.
    final class Storage: @unchecked Sendable {
        let keys: UnsafeMutablePointer<UInt64>
        let values: UnsafeMutablePointer<UInt64>
        let mask: Int
        init(capacity: Int) {
            keys = .allocate(capacity: capacity)
            keys.initialize(repeating: .max, count: capacity)
            values = .allocate(capacity: capacity)
            values.initialize(repeating: 0, count: capacity)
            mask = capacity - 1
        }
        deinit {
            keys.deallocate()
            values.deallocate()
        }
    }

    let storage: Storage
    let count: Int

    /// - Parameter merges: `(left, right, merged)` in rank order; a repeated pair keeps its first (lowest) rank.
    init(_ merges: [(left: Int32, right: Int32, merged: Int32)]) {
        var capacity = 16
        while capacity < merges.count + merges.count / 2 { capacity <<= 1 }
        let s = Storage(capacity: capacity)
        var n = 0
        for (rank, m) in merges.enumerated() {
            let key = UInt64(UInt32(m.left)) << 32 | UInt64(UInt32(m.right))
            var slot = PairTable.slot(key, s.mask)
            while s.keys[slot] != .max && s.keys[slot] != key { slot = (slot + 1) & s.mask }
            if s.keys[slot] == key { continue }
            s.keys[slot] = key
            s.values[slot] = UInt64(rank) << 32 | UInt64(UInt32(m.merged))
            n += 1
        }
        storage = s
        count = n
    }

    @inline(__always)
    static func slot(_ key: UInt64, _ mask: Int) -> Int {
        var h = key &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 31
        return Int(truncatingIfNeeded: h) & mask
    }

    /// `(rank << 32 | merged id)` for the pair, or nil.
    @inline(__always)
    func lookup(_ left: Int32, _ right: Int32) -> UInt64? {
        let key = UInt64(UInt32(left)) << 32 | UInt64(UInt32(right))
        let s = storage
        var slot = PairTable.slot(key, s.mask)
        while true {
            let k = s.keys[slot]
            if k == key { return s.values[slot] }
            if k == .max { return nil }
            slot = (slot + 1) & s.mask
        }
    }
}
