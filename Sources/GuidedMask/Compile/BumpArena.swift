/// Raw storage that hands out runs of plain values and never moves them; everything is freed with the
/// arena. The deterministic automaton's builder keeps here what it writes for every state it makes
/// (the state's NFA set, its classes grouped by target), so a first visit that makes hundreds of
/// states allocates a chunk now and then instead of an array or three per state. A single growing
/// array instead copied everything it held at each doubling, and past the allocator's mmap threshold
/// faulted fresh pages in: a spike of up to a millisecond in whichever mask grew it.
///
/// Chunks are small (32 KiB) so the allocator serves them from memory it already has; a run larger
/// than a quarter chunk gets an allocation of its own. Not thread-safe: the builder's lock guards it.
final class BumpArena<Element: BitwiseCopyable> {
    private static var chunkCapacity: Int { max(64, (32 << 10) / MemoryLayout<Element>.stride) }

    private var allocations: [UnsafeMutablePointer<Element>] = []
    private var chunk: UnsafeMutablePointer<Element>? = nil
    private var used = 0
    /// Whether the last run taken came from `chunk` (only such a run can be shortened).
    private var lastInChunk = false
    /// Bytes allocated so far.
    private(set) var bytes = 0

    init() {}

    deinit { for a in allocations { a.deallocate() } }

    /// Room for `count` values, contiguous and uninitialized; the caller writes them.
    func take(_ count: Int) -> UnsafeMutablePointer<Element> {
        let capacity = Self.chunkCapacity
        if count > capacity / 4 {
            let own = UnsafeMutablePointer<Element>.allocate(capacity: max(1, count))
            allocations.append(own)
            bytes += max(1, count) * MemoryLayout<Element>.stride
            lastInChunk = false
            return own
        }
        if chunk == nil || used + count > capacity {
            let fresh = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            allocations.append(fresh)
            bytes += capacity * MemoryLayout<Element>.stride
            chunk = fresh
            used = 0
        }
        let run = chunk! + used
        used += count
        lastInChunk = true
        return run
    }

    /// Shortens the last run taken by `count` values (a run taken at its largest possible size and
    /// filled less): the room goes to the next run. A run with an allocation of its own stays as it is.
    func shortenLast(by count: Int) {
        guard lastInChunk else { return }
        precondition(count <= used)
        used -= count
    }
}
