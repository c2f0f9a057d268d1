/// Ids of recently encoded short words, keyed by their exact bytes.
///
/// Natural text repeats a small set of words (and SentencePiece-style parts such as `▁the`) over and over; a
/// hit costs one hash and one byte comparison instead of a BPE merge loop. A word's ids depend only on its
/// bytes (merging sees nothing outside the word), so a hit is exact. Direct-mapped: a word goes to one slot
/// chosen by its hash and replaces whatever was there, so the cache never grows, never allocates after
/// `init`, and needs no eviction bookkeeping. One per `BPEScratch` (one per encoder, one thread).
final class WordCache {
    /// Words longer than this are not cached (they are rare, and bound the slot size).
    static let maxBytes = 32
    /// Words encoding to more ids than this are not cached.
    static let maxIDs = 12
    static let slotCount = 8192

    /// Full hash of the word in each slot; 0 marks an empty slot (stored hashes are never 0).
    private let hashes: UnsafeMutablePointer<UInt64>
    private let lengths: UnsafeMutablePointer<UInt8>
    private let idCounts: UnsafeMutablePointer<UInt8>
    private let keys: UnsafeMutablePointer<UInt8>
    private let ids: UnsafeMutablePointer<Int32>

    init() {
        let n = Self.slotCount
        hashes = .allocate(capacity: n)
        hashes.initialize(repeating: 0, count: n)
        lengths = .allocate(capacity: n)
        lengths.initialize(repeating: 0, count: n)
        idCounts = .allocate(capacity: n)
        idCounts.initialize(repeating: 0, count: n)
        keys = .allocate(capacity: n * Self.maxBytes)
        keys.initialize(repeating: 0, count: n * Self.maxBytes)
        ids = .allocate(capacity: n * Self.maxIDs)
        ids.initialize(repeating: 0, count: n * Self.maxIDs)
    }

    deinit {
        hashes.deallocate(); lengths.deallocate(); idCounts.deallocate(); keys.deallocate(); ids.deallocate()
    }

    /// The cache key of word `p[0..<n]` (`n <= maxBytes`): never 0.
    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 { PieceTable.hash(p, n) | 1 }

    /// Appends the cached ids of the word to `out`; false when it is not cached.
    @inline(__always)
    func lookup(_ h: UInt64, _ p: UnsafePointer<UInt8>, _ n: Int, into out: inout [Int]) -> Bool {
        let slot = Int(truncatingIfNeeded: h) & (Self.slotCount - 1)
        guard hashes[slot] == h, Int(lengths[slot]) == n,
              memcmpEqual(keys + slot * Self.maxBytes, p, n) else { return false }
        let base = ids + slot * Self.maxIDs
        for k in 0..<Int(idCounts[slot]) { out.append(Int(base[k])) }
        return true
    }

    /// Records that the word encodes to `out[from...]` (skipped when that is more than `maxIDs` ids).
    @inline(__always)
    func store(_ h: UInt64, _ p: UnsafePointer<UInt8>, _ n: Int, ids encoded: [Int], from: Int) {
        let count = encoded.count - from
        guard count <= Self.maxIDs else { return }
        let slot = Int(truncatingIfNeeded: h) & (Self.slotCount - 1)
        hashes[slot] = h
        lengths[slot] = UInt8(n)
        idCounts[slot] = UInt8(count)
        (keys + slot * Self.maxBytes).update(from: p, count: n)
        let base = ids + slot * Self.maxIDs
        for k in 0..<count { base[k] = Int32(truncatingIfNeeded: encoded[from + k]) }
    }
}
