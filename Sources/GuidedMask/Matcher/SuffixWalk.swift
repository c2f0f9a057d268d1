extension GrammarMatcher {
    /// Sets the tokens of every group whose tail the stack `below` reads once the entry's rule has
    /// returned into it: the stack is closed first (it may end in turn, or call), then each tail is
    /// walked, sharing the prefix with the previous tail and skipping tails that extend a rejected one.
    mutating func walkSuffixes(_ groups: SuffixGroups, below: Int32, mask: UnsafeMutablePointer<UInt32>) {
        guard below >= 0 else { return }
        let t = compiled.tables
        let maxDepth = compiled.vocabulary.trie.maxDepth
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
            if t.flags[Int(n.state)] == GrammarAutomaton.hasBytes { start.simple = n.state; start.parent = n.parent }
        }
        var depthArray = walk.depths
        walk.depths = []
        defer {
            walk.depths = depthArray
            engine.truncate(nodes: nodeMark, items: itemMark)
        }
        let bytes = t.tokenBytes, offsets = t.tokenOffsets
        depthArray.withUnsafeMutableBufferPointer { buffer in
            let depths = buffer.baseAddress!
            depths[0] = start
            readStrings(groups.tails.count, depths, base: StackEngine.bottom, t, string: { g in
                let packed = groups.tails[g]
                let tok = Int(packed >> 16), skip = Int(packed & 0xFFFF)
                return (bytes + Int(offsets[tok]) + skip, Int(offsets[tok + 1]) - Int(offsets[tok]) - skip)
            }, accept: { g in
                for k in (g == 0 ? 0 : Int(groups.end[g - 1]))..<Int(groups.end[g]) {
                    let id = groups.tokens[k]
                    mask[Int(id >> 5)] |= 1 << (id & 31)
                }
            })
        }
    }
}
