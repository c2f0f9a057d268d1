#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A table of plain values, one per NFA state, that reads as zeros until written. A large one is its own
/// anonymous mapping, so only the pages a proof writes are faulted in: the first-visit proofs
/// (`PlainTextProof`, `ControlByteProof`) keep three such tables each, and as arrays filled at the first
/// question of a grammar they cost a `memset` and a page fault for every page of every table (2-3 ms for
/// the 787,000 NFA states of a large schema in declared order, in whichever mask asked first), although an
/// exploration touches a few thousand states. A small table is an ordinary allocation set to zeros (a
/// mapping costs system calls that a few pages do not repay). Not `ZeroedRegions`: its pool keeps the
/// automaton's tables warm from one grammar to the next, and these would push them out.
///
/// Zero must mean "nothing known": a table whose empty value is another (-1) stores its values plus one.
final class ZeroedTable<Element: BitwiseCopyable> {
    let base: UnsafeMutablePointer<Element>
    let count: Int
    /// Bytes of the mapping; 0 for an ordinary allocation.
    private let mapped: Int

    /// Tables of at least this many bytes are mapped.
    static var mappingThreshold: Int { 256 << 10 }

    init(count: Int) {
        self.count = count
        let bytes = Swift.max(1, count) * MemoryLayout<Element>.stride
        if bytes >= Self.mappingThreshold,
           let raw = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
           raw != MAP_FAILED {
            base = raw.bindMemory(to: Element.self, capacity: Swift.max(1, count))
            mapped = bytes
        } else {
            base = .allocate(capacity: Swift.max(1, count))
            UnsafeMutableRawPointer(base).initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            mapped = 0
        }
    }

    deinit {
        if mapped > 0 { munmap(UnsafeMutableRawPointer(base), mapped) } else { base.deallocate() }
    }

    @inline(__always)
    subscript(i: Int) -> Element {
        get { base[i] }
        set { base[i] = newValue }
    }

    /// Sets every value back to zero (a stamp that wrapped around).
    func clear() {
        UnsafeMutableRawPointer(base).initializeMemory(as: UInt8.self, repeating: 0, count: count * MemoryLayout<Element>.stride)
    }
}
