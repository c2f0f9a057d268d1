/// Model-space pieces (the strings the BPE merges work on) with an open-addressing hash index from bytes to
/// id. One flat byte buffer, one offset table and one slot table, allocated once and immutable afterwards:
/// no per-token allocation, a few MB for 250k tokens, and lookups that compare bytes in place through raw
/// pointers (no key copies, no array bookkeeping) in the encode inner loop.
struct PieceTable: Sendable {
    /// Owns the tables. `@unchecked Sendable`: written only in `init`, read-only afterwards.
    final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutablePointer<UInt8>
        let byteCount: Int
        let offsets: UnsafeMutablePointer<UInt32>
        let count: Int
        let slots: UnsafeMutablePointer<Int32>
        let mask: Int

        init(bytes: [UInt8], offsets: [UInt32], capacity: Int) {
            byteCount = bytes.count
            self.bytes = .allocate(capacity: max(bytes.count, 1))
            self.bytes.initialize(from: bytes, count: bytes.count)
            count = offsets.count - 1
            self.offsets = .allocate(capacity: offsets.count)
            self.offsets.initialize(from: offsets, count: offsets.count)
            slots = .allocate(capacity: capacity)
            slots.initialize(repeating: -1, count: capacity)
            mask = capacity - 1
        }

        deinit {
            bytes.deallocate()
            offsets.deallocate()
            slots.deallocate()
        }
    }

    let storage: Storage

    struct DuplicatePiece: Error { let first: Int, second: Int }

    /// Indexes every id for which `indexed` is true; throws if two indexed pieces have the same bytes.
    init(bytes: [UInt8], offsets: [UInt32], indexed: (Int) -> Bool) throws(DuplicatePiece) {
        let count = offsets.count - 1
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        let s = Storage(bytes: bytes, offsets: offsets, capacity: capacity)
        for id in 0..<count where indexed(id) {
            let start = Int(s.offsets[id]), end = Int(s.offsets[id + 1])
            var slot = Int(truncatingIfNeeded: PieceTable.hash(s.bytes + start, end - start)) & s.mask
            while s.slots[slot] >= 0 {
                let other = Int(s.slots[slot])
                let os = Int(s.offsets[other]), oe = Int(s.offsets[other + 1])
                if oe - os == end - start && memcmpEqual(s.bytes + os, s.bytes + start, end - start) {
                    throw DuplicatePiece(first: other, second: id)
                }
                slot = (slot + 1) & s.mask
            }
            s.slots[slot] = Int32(id)
        }
        storage = s
    }

    var count: Int { storage.count }

    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<n { h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01b3 }
        return h ^ (h >> 29)
    }

    /// The id of the piece whose bytes are `p[0..<n]`, or -1.
    @inline(__always)
    func lookup(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        let s = storage
        var slot = Int(truncatingIfNeeded: PieceTable.hash(p, n)) & s.mask
        while true {
            let id = s.slots[slot]
            if id < 0 { return -1 }
            let os = Int(s.offsets[Int(id)]), oe = Int(s.offsets[Int(id) + 1])
            if oe - os == n && memcmpEqual(s.bytes + os, p, n) { return id }
            slot = (slot + 1) & s.mask
        }
    }

    func lookup(_ piece: [UInt8]) -> Int32 {
        piece.withUnsafeBufferPointer { $0.isEmpty ? -1 : lookup($0.baseAddress!, $0.count) }
    }

    /// Bytes held, for memory reports.
    var memoryFootprint: Int { storage.byteCount + (storage.count + 1) * 4 + (storage.mask + 1) * 4 }
}

@inline(__always)
func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i + 8 <= n {
        if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) { return false }
        i += 8
    }
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
