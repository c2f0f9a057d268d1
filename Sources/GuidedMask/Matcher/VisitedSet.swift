/// A set of integers for one search at a time, or a map from them to node indices, kept by a matcher
/// across searches.
///
/// The slice checks visit hundreds of (state, text position) pairs per first visit of a state; a Swift
/// `Set` allocated per check, with seeded hashing per insert, cost more than the table lookups the
/// check exists for. The stack engine keys (state, frame below) pairs here once a step or closure holds
/// many stacks (`StackEngine.linearLimit`). Clearing is a generation bump, and the table only grows.
struct VisitedSet: Sendable {
    private var keys: [Int] = []
    private var values: [Int32] = []
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
        let before = count
        _ = value(for: key, inserting: 0)
        return count > before
    }

    /// The value stored for `key`; if it had none, stores `value` and returns it.
    @inline(__always)
    mutating func value(for key: Int, inserting value: Int32) -> Int32 {
        if (count + 1) * 2 > keys.count { grow(to: keys.count * 2) }
        let m = keys.count - 1
        var slot = Self.slot(key, m)
        while stamps[slot] == generation {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & m
        }
        stamps[slot] = generation
        keys[slot] = key
        values[slot] = value
        count += 1
        return value
    }

    /// Stores `value` for `key`, which must be present.
    mutating func update(_ key: Int, to value: Int32) {
        let m = keys.count - 1
        var slot = Self.slot(key, m)
        while keys[slot] != key || stamps[slot] != generation { slot = (slot + 1) & m }
        values[slot] = value
    }

    /// The table's memory (it only grows).
    var byteCount: Int { keys.capacity * 8 + values.capacity * 4 + stamps.capacity * 4 }

    @inline(__always)
    private static func slot(_ key: Int, _ m: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & m
    }

    private mutating func grow(to size: Int) {
        let oldKeys = keys, oldValues = values, oldStamps = stamps, current = generation
        keys = [Int](repeating: 0, count: max(size, 1024))
        values = [Int32](repeating: 0, count: keys.count)
        stamps = [UInt32](repeating: 0, count: keys.count)
        if current == 0 { generation = 1 }
        let m = keys.count - 1
        for i in oldKeys.indices where oldStamps[i] == current && current != 0 {
            var slot = Self.slot(oldKeys[i], m)
            while stamps[slot] == generation { slot = (slot + 1) & m }
            stamps[slot] = generation
            keys[slot] = oldKeys[i]
            values[slot] = oldValues[i]
        }
    }
}
