extension GrammarMatcher {
    /// Printable characters a class slice must hold at least: with fewer its members are a few hundred
    /// tokens (Qwen2 has single-digit tokens only), not worth a token pass and a cached set.
    static var minClassCharacters: Int { 12 }
    /// States the unbounded check may reach (a loop needs one or two; a counted length one per count).
    static var classLoopStates: Int { 64 }

    /// A class slice for `state` (see `ClassSlices`), for states no `TokenSlice` fits: the printable
    /// characters that lead to the state most of them lead to form the class C, and `state` must read
    /// every string over C by byte transitions alone — unboundedly (a loop), else up to 16 or 8 bytes (a
    /// counted length with that much room). No pop and no call is involved, so every token over C of at
    /// most that length is allowed whatever the stack below holds, exactly like a slice's members.
    /// Returns the skip for the walk and the members bitmask; nil when no class of at least
    /// `minClassCharacters` characters holds.
    mutating func classSlice(state: Int32) -> (skip: ClassSkip, members: UnsafePointer<UInt32>)? {
        let t = compiled.tables
        // The classes of printable ASCII bytes and where each leads. A trie walk from this state reads
        // every one of them as a first byte anyway, so asking costs no state the walk would not make.
        var classTarget: [Int: Int32] = [:]
        var countByTarget: [Int32: Int] = [:]
        for b in UInt8(0x20)...UInt8(0x7F) {
            let cls = Int(t.classOf[Int(b)])
            let target: Int32
            if let known = classTarget[cls] { target = known } else {
                target = t.target(state, cls)
                classTarget[cls] = target
            }
            if target > 0 { countByTarget[target, default: 0] += 1 }
        }
        guard let main = countByTarget.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
              main.value >= Self.minClassCharacters else { return nil }
        var characters = ASCIISet()
        for b in UInt8(0x20)...UInt8(0x7F) where classTarget[Int(t.classOf[Int(b)])] == main.key { characters.insert(b) }
        let classes = classTarget.filter { $0.value == main.key }.map(\.key).sorted()
        let maxLength: Int
        if readsEveryString(over: classes, from: state, maxLength: nil) {
            maxLength = Int.max
        } else if readsEveryString(over: classes, from: state, maxLength: 16) {
            maxLength = 16
        } else if readsEveryString(over: classes, from: state, maxLength: 8) {
            maxLength = 8
        } else {
            return nil
        }
        let slices = compiled.vocabulary.classSlices
        guard let members = slices.members(characters, maxLength: maxLength) else { return nil }
        let skip = ClassSkip(characters: characters, maxLength: maxLength,
                             below: slices.nodeBelow.baseAddress!, depthBelow: slices.nodeDepthBelow.baseAddress!)
        return (skip, members)
    }

    /// True when every string of bytes of `classes` (up to `maxLength` bytes; nil: any length) has a
    /// transition path from `state`: a search over (state, length) that fails at the first state
    /// missing one of the classes, or past its budget.
    private mutating func readsEveryString(over classes: [Int], from state: Int32, maxLength: Int?) -> Bool {
        let t = compiled.tables
        let limit = maxLength ?? 0
        let budget = maxLength.map { 32 * ($0 + 1) } ?? Self.classLoopStates
        visited.reset()
        var stack: [(state: Int32, length: Int)] = [(state, 0)]
        while let (q, n) = stack.popLast() {
            if !visited.insert(Int(q) * (limit + 1) + n) { continue }
            if visited.count > budget { return false }
            if maxLength != nil && n == limit { continue }
            for cls in classes {
                let target = t.target(q, cls)
                if target < 0 { return false }
                stack.append((target, maxLength == nil ? 0 : n + 1))
            }
        }
        return true
    }
}
