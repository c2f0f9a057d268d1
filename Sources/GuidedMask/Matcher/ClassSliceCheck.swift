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
    /// Returns the skip for the walk and the members bitmask (and the narrower class's, where the skip
    /// has one); nil when no class of at least `minClassCharacters` characters holds.
    mutating func classSlice(state: Int32) -> (skip: ClassSkip, members: UnsafePointer<UInt32>, narrowerMembers: UnsafePointer<UInt32>?)? {
        let t = compiled.tables
        // The classes of printable ASCII bytes and where each leads. A trie walk from this state reads
        // every one of them as a first byte anyway, so asking costs no state the walk would not make.
        // Asked at most first visits, and most fail here: counted in stack buffers (dictionaries keyed
        // by class and target were most of this function's time).
        let classCount = t.classCount
        let printable = Int(0x7F - 0x20 + 1)
        let found: (ascii: ASCIISet, classes: [Int])? = withUnsafeTemporaryAllocation(of: Int32.self, capacity: classCount + 2 * printable) { scratch in
            let base = scratch.baseAddress!
            let unknown = Int32.min
            let targetOf = base, targets = base + classCount, counts = base + classCount + printable
            for c in 0..<classCount { targetOf[c] = unknown }
            var distinct = 0
            for b in UInt8(0x20)...UInt8(0x7F) {
                let cls = Int(t.classOf[Int(b)])
                if targetOf[cls] == unknown { targetOf[cls] = t.target(state, cls) }
                let target = targetOf[cls]
                guard target > 0 else { continue }
                var k = 0
                while k < distinct && targets[k] != target { k += 1 }
                if k == distinct { targets[k] = target; counts[k] = 0; distinct += 1 }
                counts[k] += 1
            }
            // The target most characters lead to; on a tie, the lowest state.
            var best = -1
            for k in 0..<distinct where best < 0 || counts[k] > counts[best] || (counts[k] == counts[best] && targets[k] < targets[best]) {
                best = k
            }
            guard best >= 0, Int(counts[best]) >= Self.minClassCharacters else { return nil }
            let main = targets[best]
            var ascii = ASCIISet()
            var classes: [Int] = []
            for b in UInt8(0x20)...UInt8(0x7F) where targetOf[Int(t.classOf[Int(b)])] == main {
                ascii.insert(b)
                let cls = Int(t.classOf[Int(b)])
                if !classes.contains(cls) { classes.append(cls) }
            }
            return (ascii, classes.sorted())
        }
        guard let (ascii, classes) = found else { return nil }
        let slices = compiled.vocabulary.classSlices
        // Widest first: with every non-ASCII character, with all but white space (`\S`: asked only where
        // the ASCII space is not in the class either; the first character of a counted word, or each of
        // its last word), none.
        let wides = [Wide.all, .spaceless, .none].filter { $0 != .spaceless || !ascii.contains(0x20) }
        func characters(_ wide: Wide) -> ASCIISet {
            var characters = ascii
            if wide != .none { characters.high |= ASCIISet.wideBit }
            if wide == .all { characters.high |= ASCIISet.spaceBit }
            return characters
        }
        for (k, wide) in wides.enumerated() {
            // No token over C is longer than `longest`, so reading every string of up to `longest` bytes
            // is as good as reading every string: the check never looks deeper than a member can read.
            // (A small vocabulary's short tokens thus make states the walk would not make.)
            let longest = slices.longestMember(characters(wide))
            guard longest > 0 else { continue }
            var rooms = [longest]
            for room in [16, 8] where room < longest { rooms.append(room) }
            guard let maxLength = rooms.first(where: { readsEveryString(over: classes, wide: wide, from: state, maxLength: $0) })
            else { continue }
            guard let members = slices.members(characters(wide), maxLength: maxLength) else { return nil }
            var skip = ClassSkip(characters: characters(wide), maxLength: maxLength,
                                 below: slices.nodeBelow.baseAddress!, depthBelow: slices.nodeDepthBelow.baseAddress!)
            // Bounded: a narrower class may hold without a bound. Inside a word of counted words
            // (`(?:\S+\s+){0,99}`) every character may follow for the 8 bytes checked, and every one but
            // white space for good; with the first alone the walk went down every longer token (1.5 ms).
            var narrowerMembers: UnsafePointer<UInt32>? = nil
            if maxLength < longest {
                for narrower in wides.dropFirst(k + 1) {
                    let room = slices.longestMember(characters(narrower))
                    guard room > maxLength, readsEveryString(over: classes, wide: narrower, from: state, maxLength: room),
                          let more = slices.members(characters(narrower), maxLength: room) else { continue }
                    skip.narrower = characters(narrower)
                    skip.narrowerMaxLength = room
                    narrowerMembers = more
                    break
                }
            }
            return (skip, members, narrowerMembers)
        }
        return nil
    }

    /// Which non-ASCII characters of plain text a class holds.
    enum Wide { case all, spaceless, none }

    /// True when every string over `classes` (single bytes between characters) and the non-ASCII
    /// characters `wide` holds (`SliceUTF8`, `SliceUTF8.nextSpaceless`), of up to `maxLength` bytes, has
    /// a transition path from `state`. A breadth-first search over (state, position inside a character) pairs, each taken
    /// once at the fewest bytes that reach it: every pair reached within `maxLength - 1` bytes must read
    /// all of the bytes. It fails at the first pair missing one, or past its budget; a loop closes after
    /// a handful of pairs, whatever `maxLength`.
    private mutating func readsEveryString(over classes: [Int], wide: Wide, from state: Int32, maxLength: Int) -> Bool {
        let t = compiled.tables
        let budget = Self.classPairsPerByte(room: maxLength) * (maxLength + 1) * (wide == .none ? 1 : 4)
        let edges = wide == .spaceless ? compiled.spacelessEdges : compiled.sliceEdges
        let positions = edges.count
        let boundaryEdges = classes.map { (cls: $0, u: SliceUTF8.boundary) }
            + (wide != .none ? edges[Int(SliceUTF8.boundary)].filter { $0.u != SliceUTF8.boundary } : [])
        visited.reset()
        _ = visited.insert(Int(state) * positions + Int(SliceUTF8.boundary))
        var layer: [(state: Int32, u: UInt8)] = [(state, SliceUTF8.boundary)]
        var next: [(state: Int32, u: UInt8)] = []
        var length = 0
        while !layer.isEmpty && length < maxLength {
            next.removeAll(keepingCapacity: true)
            for (q, u) in layer {
                for (cls, u2) in u == SliceUTF8.boundary ? boundaryEdges : edges[Int(u)] {
                    let target = t.target(q, cls)
                    if target < 0 { return false }
                    if visited.insert(Int(target) * positions + Int(u2)) {
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
