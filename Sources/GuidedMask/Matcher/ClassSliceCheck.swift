extension GrammarMatcher {
    /// Printable characters a class slice must hold at least: with fewer its members are a few hundred
    /// tokens (Qwen2 has single-digit tokens only), not worth a token pass and a cached set.
    static var minClassCharacters: Int { 12 }
    /// (state, length) pairs a check of `room` bytes may visit per byte of room: 32 up to 16 bytes,
    /// 4 beyond (a loop needs one or two states per length, a counted length one; a check of a long
    /// vocabulary's 100-byte room must not make thousands of states the walk never reaches).
    static func classPairsPerByte(room: Int) -> Int { room <= 16 ? 32 : 4 }

    /// A class slice for `state` (see `ClassSlices`), for states no `TokenSlice` fits: the printable
    /// characters that lead to the state most of them lead to form the class C, and `state` must read
    /// every string over C by byte transitions alone — up to the longest token over C (as good as
    /// unboundedly), else up to 16 or 8 bytes (a counted length with that much room). No pop and no
    /// call is involved, so every token over C of at most that length is allowed whatever the stack
    /// below holds, exactly like a slice's members.
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
        let slices = compiled.vocabulary.classSlices
        // No token over C is longer than `longest`, so reading every string of up to `longest` bytes is
        // as good as reading every string: the check never looks deeper than a member can read. (A
        // small vocabulary's short tokens thus make states the walk would not make.)
        let longest = slices.longestMember(characters)
        guard longest > 0 else { return nil }
        var rooms = [longest]
        for room in [16, 8] where room < longest { rooms.append(room) }
        guard let maxLength = rooms.first(where: { readsEveryString(over: classes, from: state, maxLength: $0) })
        else { return nil }
        guard let members = slices.members(characters, maxLength: maxLength) else { return nil }
        let skip = ClassSkip(characters: characters, maxLength: maxLength,
                             below: slices.nodeBelow.baseAddress!, depthBelow: slices.nodeDepthBelow.baseAddress!)
        return (skip, members)
    }

    /// True when every string of bytes of `classes` of up to `maxLength` bytes has a transition path
    /// from `state`: a search over (state, length) that fails at the first state missing one of the
    /// classes, or past its budget.
    private mutating func readsEveryString(over classes: [Int], from state: Int32, maxLength: Int) -> Bool {
        let t = compiled.tables
        let budget = Self.classPairsPerByte(room: maxLength) * (maxLength + 1)
        visited.reset()
        var stack: [(state: Int32, length: Int)] = [(state, 0)]
        while let (q, n) = stack.popLast() {
            if !visited.insert(Int(q) * (maxLength + 1) + n) { continue }
            if visited.count > budget { return false }
            if n == maxLength { continue }
            for cls in classes {
                let target = t.target(q, cls)
                if target < 0 { return false }
                stack.append((target, n + 1))
            }
        }
        return true
    }
}
