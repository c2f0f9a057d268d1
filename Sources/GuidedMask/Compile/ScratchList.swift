/// A growable list of plain values over one raw allocation, for the inner loops of a first visit's
/// proofs. An array there checks that its storage is unique at every write: in `PlainTextProof` on a
/// key trie of 4,000 (state, position) pairs those checks were a quarter of the proof's time.
///
/// Non-copyable, so the allocation has one owner and is freed once. Indices are not checked in release
/// builds: callers index only below `count`. Tables indexed by NFA state or byte class are lists made
/// at their full size (`init(repeating:count:)`), written through the subscript without growing.
struct ScratchList<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = Swift.max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// `count` copies of `x`: a table indexed by NFA state or byte class.
    init(repeating x: Element, count: Int) {
        self.init(capacity: count)
        append(x, times: count)
    }

    deinit { base.deallocate() }

    @inline(__always)
    subscript(i: Int) -> Element {
        get {
            assert(i >= 0 && i < count)
            return base[i]
        }
        nonmutating set {
            assert(i >= 0 && i < count)
            base[i] = newValue
        }
    }

    @inline(__always)
    mutating func append(_ x: Element) {
        if count == capacity { grow(to: count + 1) }
        base[count] = x
        count += 1
    }

    mutating func append(_ x: Element, times n: Int) {
        if count + n > capacity { grow(to: count + n) }
        (base + count).initialize(repeating: x, count: n)
        count += n
    }

    mutating func removeAll() { count = 0 }

    /// Sets every element to `x`.
    func fill(_ x: Element) { base.update(repeating: x, count: count) }

    mutating func removeLast() {
        assert(count > 0)
        count -= 1
    }

    private mutating func grow(to needed: Int) {
        var c = capacity
        while c < needed { c *= 2 }
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: c)
        fresh.moveInitialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = c
    }
}
