/// A set of non-negative integers for one search at a time, kept by a matcher across searches.
///
/// The slice checks visit hundreds of (state, text position) pairs per first visit of a state; a Swift
/// `Set` allocated per check, with seeded hashing per insert, cost more than the table lookups the
/// check exists for. Here clearing is a generation bump, and the table only grows.
struct VisitedSet: Sendable {
    private var keys: [Int] = []
    private var stamps: [UInt32] = []
    private var generation: UInt32 = 0
    private(set) var count = 0

    /// Empties the set.
    mutating func reset() {
        count = 0
        generation &+= 1
        if generation == 0 {
            // Wrapped: stale stamps could read as current.
            for i in stamps.indices { stamps[i] = 0 }
            generation = 1
        }
        if keys.isEmpty { grow(to: 1024) }
    }

    /// Adds `key`; false when it was already present.
    @inline(__always)
    mutating func insert(_ key: Int) -> Bool {
        if (count + 1) * 2 > keys.count { grow(to: keys.count * 2) }
        let m = keys.count - 1
        var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & m
        while stamps[slot] == generation {
            if keys[slot] == key { return false }
            slot = (slot + 1) & m
        }
        stamps[slot] = generation
        keys[slot] = key
        count += 1
        return true
    }

    private mutating func grow(to size: Int) {
        let oldKeys = keys, oldStamps = stamps, current = generation
        keys = [Int](repeating: 0, count: max(size, 1024))
        stamps = [UInt32](repeating: 0, count: keys.count)
        if current == 0 { generation = 1 }
        let m = keys.count - 1
        for i in oldKeys.indices where oldStamps[i] == current && current != 0 {
            var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(oldKeys[i])) &* 0x9E37_79B9_7F4A_7C15) >> 32) & m
            while stamps[slot] == generation { slot = (slot + 1) & m }
            stamps[slot] = generation
            keys[slot] = oldKeys[i]
        }
    }
}
