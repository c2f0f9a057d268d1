extension GrammarMatcher {
    /// Sets the tokens of every group whose tail the stack `below` reads once the entry's rule has
    /// returned into it: the stack is closed first (it may end in turn, or call), then each tail is
    /// walked, sharing the prefix with the previous tail and skipping tails that extend a rejected one.
    mutating func walkSuffixes(_ groups: SuffixGroups, below: Int32, mask: UnsafeMutablePointer<UInt32>) {
        guard below >= 0 else { return }
        let longer = groups.withView { walkGroups($0, below: below, mask: mask) }
        if longer < groups.plainPairs.count {
            // Bucketed plain tails longer than any slice below (only where it reads fewer than 16
            // characters): grouped now, and walked.
            let t = compiled.tables
            let rest = SuffixGroups(pairs: Array(groups.plainPairs[longer...]), bytes: t.tokenBytes, offsets: t.tokenOffsets, bucketing: false)
            _ = rest.withView { walkGroups($0, below: below, mask: mask) }
        }
    }

    /// Walks the tails of `groups` from `below` and sets the plain buckets a slice below covers; returns
    /// where the bucketed pairs left to walk begin in `plainPairs` (plain tails longer than that slice;
    /// its count if none).
    private mutating func walkGroups(_ groups: SuffixGroups.View, below: Int32, mask: UnsafeMutablePointer<UInt32>) -> Int {
        let t = compiled.tables
        let maxDepth = t.trieMaxDepth
        if walk.depths.count < maxDepth + 2 {
            walk.depths = [DepthState](repeating: DepthState(), count: maxDepth + 2)
        }
        let nodeMark = engine.nodes.count, itemMark = engine.items.count
        let raw = engine.items.count
        engine.items.append(below)
        let c = engine.close(raw, engine.items.count, t, maxStacks: compiled.limits.maxStacks)
        var start = DepthState(simple: -1, parent: 0, lo: Int32(c.lo), hi: Int32(c.hi), nodeMark: Int32(engine.nodes.count),
                               itemMark: Int32(engine.items.count))
        if c.hi - c.lo == 1 {
            let n = engine.nodes[Int(engine.items[c.lo])]
            if t.stateFlags(n.state) == GrammarAutomaton.hasBytes { start.simple = n.state; start.parent = n.parent }
        }
        // Plain tails need no walk when a stack of the caller's configuration takes a slice: its state
        // reads every plain string of up to that many characters by bytes alone (no return), which its
        // cached entry records. At the last characters of a `maxLength` block most of the vocabulary
        // returns into the string rule, whose next state reads the following characters. Only for many
        // tails: a few (`",` after a string) are walked faster than an entry is looked up or made.
        var plainRoom = 0
        var k = groups.tails.count >= Self.plainTailShortcutMinimum || !groups.plainPairs.isEmpty ? c.lo : c.hi
        while k < c.hi {
            let n = engine.nodes[Int(engine.items[k])]
            if let e = try? cacheEntry(for: n.state, atBottom: n.parent == StackEngine.bottom).takeUnretainedValue(), let s = e.slice {
                plainRoom = max(plainRoom, min(s.maxCharacters, 255))
            }
            k += 1
        }
        // Bucketed plain tails of at most `plainRoom` characters are read by that slice.
        var longer = groups.plainPairs.count
        if !groups.plainPairs.isEmpty {
            let covered = Int(groups.plainEnd[min(plainRoom, SuffixGroups.bucketCharacters)])
            for k in 0..<covered {
                let id = UInt32(truncatingIfNeeded: groups.plainPairs[k] >> 16)
                mask[Int(id >> 5)] |= 1 << (id & 31)
            }
            longer = covered
        }
        // The groups left to read, in tail order (all of them without a slice below).
        var order: [Int32] = []
        if plainRoom > 0 {
            order = walk.groups
            walk.groups = []
            order.removeAll(keepingCapacity: true)
            let plain = groups.plainCharacters
            for g in 0..<plain.count {
                if plain[g] != 0 && Int(plain[g]) <= plainRoom { Self.setGroup(groups, g, mask) } else { order.append(Int32(g)) }
            }
        }
        var depthArray = walk.depths
        walk.depths = []
        defer {
            walk.depths = depthArray
            if plainRoom > 0 { walk.groups = order }
            engine.truncate(nodes: nodeMark, items: itemMark)
        }
        let bytes = t.tokenBytes, offsets = t.tokenOffsets
        depthArray.withUnsafeMutableBufferPointer { buffer in
            let depths = buffer.baseAddress!
            depths[0] = start
            if plainRoom == 0 {
                readStrings(groups.tails.count, depths, base: StackEngine.bottom, t, string: { g in
                    Self.tail(groups, g, bytes, offsets)
                }, accept: { g in Self.setGroup(groups, g, mask) })
            } else {
                let left = order
                readStrings(left.count, depths, base: StackEngine.bottom, t, string: { k in
                    Self.tail(groups, Int(left[k]), bytes, offsets)
                }, accept: { k in Self.setGroup(groups, Int(left[k]), mask) })
            }
        }
        return longer
    }

    /// Tail groups from which `walkSuffixes` looks for a slice in the caller's states.
    static let plainTailShortcutMinimum = 1_024

    /// The bytes of group `g`'s tail.
    @inline(__always)
    private static func tail(_ groups: SuffixGroups.View, _ g: Int, _ bytes: UnsafeMutablePointer<UInt8>,
                             _ offsets: UnsafeMutablePointer<UInt32>) -> (UnsafeMutablePointer<UInt8>, Int) {
        let packed = groups.tails[g]
        let tok = Int(packed >> 16), skip = Int(packed & 0xFFFF)
        return (bytes + Int(offsets[tok]) + skip, Int(offsets[tok + 1]) - Int(offsets[tok]) - skip)
    }

    /// Sets the tokens of group `g`.
    @inline(__always)
    private static func setGroup(_ groups: SuffixGroups.View, _ g: Int, _ mask: UnsafeMutablePointer<UInt32>) {
        for k in (g == 0 ? 0 : Int(groups.end[g - 1]))..<Int(groups.end[g]) {
            let id = groups.tokens[k]
            mask[Int(id >> 5)] |= 1 << (id & 31)
        }
    }
}
