/// A list of automaton states (a subset construction's NFA set or kernel, a product's tuple) as a
/// dictionary key, hashed as one block of bytes: `Array`'s own hashing feeds the hasher element by
/// element, which was a sixth of building the search automaton of an unanchored `pattern`.
struct StateSetKey: Hashable {
    let states: [Int32]

    init(_ states: [Int32]) { self.states = states }

    func hash(into hasher: inout Hasher) {
        states.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: StateSetKey, b: StateSetKey) -> Bool { a.states == b.states }
}
