/// Model-space pieces (the strings the BPE merges work on) with an open-addressing hash index from bytes to
/// id. One flat byte buffer, one offset table and one slot array: no per-token allocation, a few MB for 250k
/// tokens, and lookups that compare bytes in place (no key copies) for the encode inner loop.
struct PieceTable: Sendable {
    /// Concatenated piece bytes; `offsets[i] ..< offsets[i + 1]` is piece i (may be empty: not indexed).
    let bytes: [UInt8]
    let offsets: [UInt32]
    /// Open-addressing slots holding piece ids, -1 when empty; the count is a power of two.
    private let slots: [Int32]

    /// Indexes every id in `indexed`; returns nil with the first duplicated id pair if two indexed pieces
    /// have the same bytes.
    init(bytes: [UInt8], offsets: [UInt32], indexed: (Int) -> Bool) throws(DuplicatePiece) {
        self.bytes = bytes
        self.offsets = offsets
        let count = offsets.count - 1
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        try bytes.withUnsafeBufferPointer { b throws(DuplicatePiece) in
            for id in 0..<count where indexed(id) {
                let start = Int(offsets[id]), end = Int(offsets[id + 1])
                var slot = Int(truncatingIfNeeded: PieceTable.hash(b.baseAddress! + start, end - start)) & mask
                while slots[slot] >= 0 {
                    let other = Int(slots[slot])
                    let os = Int(offsets[other]), oe = Int(offsets[other + 1])
                    if oe - os == end - start && memcmpEqual(b.baseAddress! + os, b.baseAddress! + start, end - start) {
                        throw DuplicatePiece(first: other, second: id)
                    }
                    slot = (slot + 1) & mask
                }
                slots[slot] = Int32(id)
            }
        }
        self.slots = slots
    }

    struct DuplicatePiece: Error { let first: Int, second: Int }

    var count: Int { offsets.count - 1 }

    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<n { h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01b3 }
        return h ^ (h >> 29)
    }

    /// The id of the piece whose bytes are `p[0..<n]`, or -1.
    @inline(__always)
    func lookup(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        slots.withUnsafeBufferPointer { s in
            bytes.withUnsafeBufferPointer { b in
                offsets.withUnsafeBufferPointer { o in
                    let mask = s.count - 1
                    var slot = Int(truncatingIfNeeded: PieceTable.hash(p, n)) & mask
                    while true {
                        let id = s[slot]
                        if id < 0 { return -1 }
                        let os = Int(o[Int(id)]), oe = Int(o[Int(id) + 1])
                        if oe - os == n && (n == 0 || memcmpEqual(b.baseAddress! + os, p, n)) { return id }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    func lookup(_ piece: [UInt8]) -> Int32 {
        piece.withUnsafeBufferPointer { $0.isEmpty ? -1 : lookup($0.baseAddress!, $0.count) }
    }

    func piece(_ id: Int) -> ArraySlice<UInt8> { bytes[Int(offsets[id])..<Int(offsets[id + 1])] }

    /// Bytes held, for memory reports.
    var memoryFootprint: Int { bytes.count + offsets.count * 4 + slots.count * 4 }
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
