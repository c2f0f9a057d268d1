#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GuidedSync

/// Large zero-filled memory regions for the automaton's tables, recycled across compilations.
///
/// The tables are reserved at their maximum size (tens of megabytes of address space) so they never move
/// under lock-free readers, but a typical grammar touches a few pages of them. Mapping and unmapping such a
/// region for every compiled grammar cost two system calls per table plus a page fault per touched page:
/// for a small schema that was more than half of its compile time. A returned region is cleared where it
/// was written (a short `memset` keeps its pages resident; a long written range is handed back to the
/// kernel with `MADV_DONTNEED`, which reads as zeros again) and kept for the next compilation. The pool
/// holds a bounded number of regions, so what it keeps resident is bounded too.
enum ZeroedRegions {
    /// Regions kept for reuse, at most `poolLimit`.
    private static let pool = Locked<[Region]>([])
    private static let poolLimit = 16
    /// Written ranges up to this many bytes are cleared in place (their pages stay mapped and warm);
    /// larger ones are given back to the kernel. Clearing 2 MiB costs less than faulting its 512 pages
    /// in again: at 256 KiB the next grammar's first visits spent 4 % of their time in page faults on
    /// its transition rows (maskbench-dev, where grammars are made one after another). What the pool
    /// keeps resident is at most `poolLimit` times this.
    private static let clearInPlaceLimit = 1 << 21

    private struct Region: @unchecked Sendable {
        // @unchecked: a pooled region is owned by the pool alone; nothing else holds its address.
        var base: UnsafeMutableRawPointer
        var length: Int
    }

    /// The mapping's length is stored in the 8 bytes before the returned address (for `give`).
    private static let header = 8

    /// A region of at least `count` zeroed elements of `T`, reused from the pool when one fits, else newly
    /// mapped. nil when the size overflows or the kernel refuses the reservation.
    static func take<T>(_ count: Int, of: T.Type = T.self) -> UnsafeMutablePointer<T>? {
        let (bytes, overflow) = max(1, count).multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        guard !overflow, bytes < Int.max / 2 else { return nil }
        let length = (bytes + header + 4095) & ~4095
        let reused: Region? = pool.withLock { regions in
            // The smallest pooled region that fits, so large ones stay for large requests.
            var best: Int? = nil
            for (i, r) in regions.enumerated() where r.length >= length && r.length <= 4 * length {
                if best.map({ regions[$0].length > r.length }) ?? true { best = i }
            }
            return best.map { regions.remove(at: $0) }
        }
        let base: UnsafeMutableRawPointer
        if let reused {
            base = reused.base
        } else {
            // MAP_NORESERVE: untouched pages are not charged against the commit limit either.
            guard let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
                  raw != MAP_FAILED else { return nil }
            raw.storeBytes(of: length, as: Int.self)
            base = raw
        }
        return (base + header).bindMemory(to: T.self, capacity: max(1, count))
    }

    /// Returns a region from `take`, of which at most the first `written` elements were written.
    static func give<T>(_ p: UnsafeMutablePointer<T>, written: Int) {
        let base = UnsafeMutableRawPointer(p) - header
        let length = base.load(as: Int.self)
        let dirty = min(length - header, max(0, written) * MemoryLayout<T>.stride)
        if dirty <= clearInPlaceLimit {
            UnsafeMutableRawPointer(p).initializeMemory(as: UInt8.self, repeating: 0, count: dirty)
        } else {
            #if os(Linux)
            // Whole pages only: the header's page is cleared by hand past the header. On Linux,
            // MADV_DONTNEED makes private anonymous pages read as zeros again.
            let firstPage = 4096
            let end = (header + dirty + 4095) & ~4095
            UnsafeMutableRawPointer(p).initializeMemory(as: UInt8.self, repeating: 0, count: firstPage - header)
            if end > firstPage, madvise(base + firstPage, end - firstPage, MADV_DONTNEED) != 0 {
                munmap(base, length)
                return
            }
            #else
            // Elsewhere MADV_DONTNEED does not promise zeros: unmap instead.
            munmap(base, length)
            return
            #endif
        }
        // The oldest pooled region makes room, so the pool follows the sizes in current use.
        let evicted = pool.withLock { regions -> Region? in
            regions.append(Region(base: base, length: length))
            return regions.count > poolLimit ? regions.removeFirst() : nil
        }
        if let evicted { munmap(evicted.base, evicted.length) }
    }
}
