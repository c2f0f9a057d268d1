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
        /// Open-addressing slots; `id < 0` marks an empty slot.
        let slots: UnsafeMutablePointer<Slot>
        let mask: Int
        /// Ids of the one-byte pieces (-1 when absent): the commonest lookup, answered without hashing.
        let singleByte: UnsafeMutablePointer<Int32>

        init(bytes: [UInt8], offsets: [UInt32], capacity: Int) {
            byteCount = bytes.count
            self.bytes = .allocate(capacity: max(bytes.count, 1))
            self.bytes.initialize(from: bytes, count: bytes.count)
            count = offsets.count - 1
            self.offsets = .allocate(capacity: offsets.count)
            self.offsets.initialize(from: offsets, count: offsets.count)
            slots = .allocate(capacity: capacity)
            slots.initialize(repeating: Slot(tag: 0, id: -1, start: 0, length: 0), count: capacity)
            mask = capacity - 1
            singleByte = .allocate(capacity: 256)
            singleByte.initialize(repeating: -1, count: 256)
        }

        deinit {
            bytes.deallocate()
            offsets.deallocate()
            slots.deallocate()
            singleByte.deallocate()
        }
    }

    /// One hash slot: 16 bytes holding the hash tag and the piece's position, so that a probe costs one
    /// cache miss for the slot (and one for the bytes when the tag matches) instead of three dependent ones.
    struct Slot {
        var tag: UInt32
        var id: Int32
        var start: UInt32
        var length: UInt32
    }

    let storage: Storage

    struct DuplicatePiece: Error { let first: Int, second: Int }

    /// Indexes every id for which `indexed` is true; throws if two indexed pieces have the same bytes.
    init(bytes: [UInt8], offsets: [UInt32], indexed: (Int) -> Bool) throws(DuplicatePiece) {
        let count = offsets.count - 1
        var capacity = 16
        while capacity < count + count / 2 { capacity <<= 1 }
        let s = Storage(bytes: bytes, offsets: offsets, capacity: capacity)
        for id in 0..<count where indexed(id) {
            let start = Int(s.offsets[id]), end = Int(s.offsets[id + 1])
            let h = PieceTable.hash(s.bytes + start, end - start)
            let tag = UInt32(truncatingIfNeeded: h >> 32)
            var slot = Int(truncatingIfNeeded: h) & s.mask
            while s.slots[slot].id >= 0 {
                let other = s.slots[slot]
                if other.tag == tag && Int(other.length) == end - start
                    && memcmpEqual(s.bytes + Int(other.start), s.bytes + start, end - start) {
                    throw DuplicatePiece(first: Int(other.id), second: id)
                }
                slot = (slot + 1) & s.mask
            }
            s.slots[slot] = Slot(tag: tag, id: Int32(id), start: UInt32(start), length: UInt32(end - start))
            if end - start == 1 { s.singleByte[Int(s.bytes[start])] = Int32(id) }
        }
        storage = s
    }

    var count: Int { storage.count }

    /// Hash of a byte string, eight bytes per step (pieces such as long runs of '▁' or spaces are hashed in a
    /// few multiplications rather than one per byte). Only compared with itself, so any good mix will do.
    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n)
        var i = 0
        while i + 8 <= n {
            let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            h = (h ^ w) &* 0xff51_afd7_ed55_8ccd
            h ^= h >> 32
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(p[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        return h ^ (h >> 33)
    }

    /// The id of the piece whose bytes are `p[0..<n]`, or -1.
    @inline(__always)
    func lookup(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        let s = storage
        if n == 1 { return s.singleByte[Int(p[0])] }
        let h = PieceTable.hash(p, n)
        let tag = UInt32(truncatingIfNeeded: h >> 32)
        var slot = Int(truncatingIfNeeded: h) & s.mask
        while true {
            let e = s.slots[slot]
            if e.id < 0 { return -1 }
            if e.tag == tag && Int(e.length) == n && memcmpEqual(s.bytes + Int(e.start), p, n) { return e.id }
            slot = (slot + 1) & s.mask
        }
    }

    func lookup(_ piece: [UInt8]) -> Int32 {
        piece.withUnsafeBufferPointer { $0.isEmpty ? -1 : lookup($0.baseAddress!, $0.count) }
    }

    /// Bytes held, for memory reports.
    var memoryFootprint: Int { storage.byteCount + (storage.count + 1) * 4 + (storage.mask + 1) * MemoryLayout<Slot>.stride }
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
