/// A JSON object: members in the order they were written or inserted.
///
/// Lookups are linear while the object is small, which beats hashing for the small objects schemas and
/// model outputs are made of; past `indexedCount` members a hash index by key bytes takes over, so that
/// building or reading an object of thousands of members (a schema's `$defs`) is not quadratic. A
/// duplicate key keeps its first position and takes the last value (what most JSON parsers do).
public struct JSONObject: Sendable {
    public private(set) var entries: [(key: String, value: JSONValue)]
    /// Position of each key, by its exact bytes; nil while the object has at most `indexedCount` members.
    private var positions: [KeyBytes: Int]? = nil

    /// Members past which lookups go through `positions`.
    static let indexedCount = 16

    public init() { entries = [] }

    public init(_ entries: [(key: String, value: JSONValue)]) {
        self.entries = []
        self.entries.reserveCapacity(entries.count)
        for e in entries { self[e.key] = e.value }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }

    /// Keys compare code point by code point (JSON does not normalize Unicode).
    /// (The byte counts are compared first: schema keyword lookups scan every key of a node, and
    /// most differ in length.)
    public func index(of key: String) -> Int? {
        if let positions { return positions[KeyBytes(key)] }
        let n = key.utf8.count
        return entries.firstIndex { $0.key.utf8.count == n && $0.key.utf8.elementsEqual(key.utf8) }
    }

    public subscript(key: String) -> JSONValue? {
        get { index(of: key).map { entries[$0].value } }
        set {
            if let i = index(of: key) {
                if let v = newValue {
                    entries[i].value = v
                } else {
                    entries.remove(at: i)
                    positions = nil
                    reindex()
                }
            } else if let v = newValue {
                entries.append((key: key, value: v))
                if positions != nil { positions![KeyBytes(key)] = entries.count - 1 } else { reindex() }
            }
        }
    }

    /// Builds the hash index once the object is past `indexedCount` members.
    private mutating func reindex() {
        guard positions == nil, entries.count > Self.indexedCount else { return }
        var p: [KeyBytes: Int] = [:]
        p.reserveCapacity(entries.count * 2)
        for (i, e) in entries.enumerated() { p[KeyBytes(e.key)] = i }
        positions = p
    }
}

/// A key compared and hashed by its UTF-8 bytes (`String`'s own equality would identify canonically
/// equivalent keys, which JSON keeps apart).
private struct KeyBytes: Hashable, Sendable {
    let key: String
    init(_ key: String) { self.key = key }

    static func == (a: KeyBytes, b: KeyBytes) -> Bool {
        a.key.utf8.count == b.key.utf8.count && a.key.utf8.elementsEqual(b.key.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var key = key
        key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension JSONObject: Equatable {
    /// Unordered comparison, as JSON Schema's `const`, `enum` and `uniqueItems` require.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (k, v) in lhs.entries {
            guard let w = rhs[k], v == w else { return false }
        }
        return true
    }
}

extension JSONObject: Hashable {
    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes commutatively.
        var acc = 0
        for (k, v) in entries {
            var h = Hasher()
            h.combine(k)
            h.combine(v)
            acc = acc &+ h.finalize()
        }
        hasher.combine(count)
        hasher.combine(acc)
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { entries.makeIterator() }
}
