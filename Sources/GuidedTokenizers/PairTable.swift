/// Merges as an open-addressing hash table: `(left id, right id)` → `(rank, merged id)`; from a Hugging Face
/// merges list, or derived from SentencePiece piece scores.
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
        self.init(entries: merges.enumerated().map { rank, m in
            (m.left, m.right, UInt64(rank) << 32 | UInt64(UInt32(m.merged)))
        })
    }

    /// Every way of writing an indexed piece as two indexed pieces: `(a, b)` → `(rank of c, c)` whenever
    /// `bytes(a) + bytes(b) == bytes(c)`. Since piece bytes are unique this answers exactly what looking up the
    /// joined bytes would (SentencePiece ranking), without hashing them in the merge loop.
    init(splitting pieces: PieceTable, ranks: [UInt32]) {
        let s = pieces.storage
        var entries: [(Int32, Int32, UInt64)] = []
        for id in 0..<s.count {
            let start = Int(s.offsets[id]), n = Int(s.offsets[id + 1]) - start
            let p = s.bytes + start
            guard n >= 2, pieces.lookup(p, n) == Int32(id) else { continue }
            for k in 1..<n {
                let a = pieces.lookup(p, k)
                guard a >= 0 else { continue }
                let b = pieces.lookup(p + k, n - k)
                guard b >= 0 else { continue }
                entries.append((a, b, UInt64(ranks[id]) << 32 | UInt64(UInt32(id))))
            }
        }
        self.init(entries: entries)
    }

    /// `(left, right, value)`; a repeated pair keeps its first value.
    private init(entries: [(Int32, Int32, UInt64)]) {
        var capacity = 16
        while capacity < entries.count + entries.count / 2 { capacity <<= 1 }
        let s = Storage(capacity: capacity)
        var n = 0
        for (left, right, value) in entries {
            let key = UInt64(UInt32(left)) << 32 | UInt64(UInt32(right))
            var slot = PairTable.slot(key, s.mask)
            while s.keys[slot] != .max && s.keys[slot] != key { slot = (slot + 1) & s.mask }
            if s.keys[slot] == key { continue }
            s.keys[slot] = key
            s.values[slot] = value
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

    /// The table without its owner, for loops that must not retain it; valid while the table lives.
    struct Raw {
        let keys: UnsafeMutablePointer<UInt64>
        let values: UnsafeMutablePointer<UInt64>
        let mask: Int

        /// `(rank << 32 | merged id)` for the pair, or nil.
        @inline(__always)
        func lookup(_ left: Int32, _ right: Int32) -> UInt64? {
            let key = UInt64(UInt32(left)) << 32 | UInt64(UInt32(right))
            var slot = PairTable.slot(key, mask)
            while true {
                let k = keys[slot]
                if k == key { return values[slot] }
                if k == .max { return nil }
                slot = (slot + 1) & mask
            }
        }
    }

    var raw: Raw { Raw(keys: storage.keys, values: storage.values, mask: storage.mask) }

    /// `(rank << 32 | merged id)` for the pair, or nil.
    @inline(__always)
    func lookup(_ left: Int32, _ right: Int32) -> UInt64? { raw.lookup(left, right) }
}
