extension GrammarMatcher {
    /// Printable characters a class slice must hold at least: with fewer its members are a few hundred
    /// tokens (Qwen2 has single-digit tokens only), not worth a token pass and a cached set.
    static var minClassCharacters: Int { 12 }
    /// (state, length) pairs a check of `room` bytes may visit per byte of room: 32 up to 16 bytes,
    /// 4 beyond (a loop needs one or two states per length, a counted length one; a check of a long
    /// vocabulary's 100-byte room must not make thousands of states the walk never reaches).
    static func classPairsPerByte(room: Int) -> Int { room <= 16 ? 32 : 4 }

    /// A class slice for `state` (see `ClassSlices`), for states no `TokenSlice` fits: the printable
    /// characters that lead to the state most of them lead to form the class C, with every non-ASCII
    /// character when the state reads those too (a search in free text), and `state` must read every
    /// string over C by byte transitions alone — up to the longest token over C (as good as
    /// unboundedly), else up to 16 or 8 bytes (a counted length with that much room). No pop and no call
    /// is involved, so every token over C of at most that length is allowed whatever the stack below
    /// holds, exactly like a slice's members.
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
        var ascii = ASCIISet()
        for b in UInt8(0x20)...UInt8(0x7F) where classTarget[Int(t.classOf[Int(b)])] == main.key { ascii.insert(b) }
        let classes = classTarget.filter { $0.value == main.key }.map(\.key).sorted()
        let slices = compiled.vocabulary.classSlices
        for wide in [true, false] {
            var characters = ascii
            if wide { characters.high |= ASCIISet.wideBit }
            // No token over C is longer than `longest`, so reading every string of up to `longest` bytes
            // is as good as reading every string: the check never looks deeper than a member can read.
            // (A small vocabulary's short tokens thus make states the walk would not make.)
            let longest = slices.longestMember(characters)
            guard longest > 0 else { continue }
            var rooms = [longest]
            for room in [16, 8] where room < longest { rooms.append(room) }
            guard let maxLength = rooms.first(where: { readsEveryString(over: classes, wide: wide, from: state, maxLength: $0) })
            else { continue }
            guard let members = slices.members(characters, maxLength: maxLength) else { return nil }
            let skip = ClassSkip(characters: characters, maxLength: maxLength,
                                 below: slices.nodeBelow.baseAddress!, depthBelow: slices.nodeDepthBelow.baseAddress!)
            return (skip, members)
        }
        return nil
    }

    /// True when every string over `classes` (single bytes between characters) and, with `wide`, every
    /// non-ASCII character of plain text (`SliceUTF8`), of up to `maxLength` bytes, has a transition path
    /// from `state`. A breadth-first search over (state, position inside a character) pairs, each taken
    /// once at the fewest bytes that reach it: every pair reached within `maxLength - 1` bytes must read
    /// all of the bytes. It fails at the first pair missing one, or past its budget; a loop closes after
    /// a handful of pairs, whatever `maxLength`.
    private mutating func readsEveryString(over classes: [Int], wide: Bool, from state: Int32, maxLength: Int) -> Bool {
        let t = compiled.tables
        let budget = Self.classPairsPerByte(room: maxLength) * (maxLength + 1) * (wide ? 4 : 1)
        let boundaryEdges = classes.map { (cls: $0, u: SliceUTF8.boundary) }
            + (wide ? compiled.sliceEdges[Int(SliceUTF8.boundary)].filter { $0.u != SliceUTF8.boundary } : [])
        visited.reset()
        _ = visited.insert(Int(state) * SliceUTF8.stateCount + Int(SliceUTF8.boundary))
        var layer: [(state: Int32, u: UInt8)] = [(state, SliceUTF8.boundary)]
        var next: [(state: Int32, u: UInt8)] = []
        var length = 0
        while !layer.isEmpty && length < maxLength {
            next.removeAll(keepingCapacity: true)
            for (q, u) in layer {
                for (cls, u2) in u == SliceUTF8.boundary ? boundaryEdges : compiled.sliceEdges[Int(u)] {
                    let target = t.target(q, cls)
                    if target < 0 { return false }
                    if visited.insert(Int(target) * SliceUTF8.stateCount + Int(u2)) {
                        if visited.count > budget { return false }
                        next.append((target, u2))
                    }
                }
            }
            swap(&layer, &next)
            length += 1
        }
        return true
    }
}
