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
        depthArray.withUnsafeMutableBufferPointer { buffer in
            let depths = buffer.baseAddress!
            depths[0] = start
            let bytes = t.tokenBytes, offsets = t.tokenOffsets
            var prev: UnsafeMutablePointer<UInt8> = bytes, prevLength = 0, valid = 0
            var fail: UnsafeMutablePointer<UInt8> = bytes, failLength = 0
            var from = 0
            for (g, packed) in groups.tails.enumerated() {
                defer { from = Int(groups.end[g]) }
                let tok = Int(packed >> 16), skip = Int(packed & 0xFFFF)
                let tail = bytes + Int(offsets[tok]) + skip
                let length = Int(offsets[tok + 1]) - Int(offsets[tok]) - skip
                if failLength > 0 {
                    if length >= failLength && suffixEqual(tail, fail, failLength) { continue }
                    failLength = 0
                }
                var d = 0
                let limit = min(valid, length, prevLength)
                while d < limit && tail[d] == prev[d] { d += 1 }
                var ok = true
                while d < length {
                    if slowStep(depths, d, byte: tail[d], base: StackEngine.bottom, needClose: true, t) == .rejected {
                        fail = tail; failLength = d + 1
                        ok = false
                        break
                    }
                    d += 1
                }
                valid = d
                prev = tail; prevLength = length
                if ok {
                    for k in from..<Int(groups.end[g]) {
                        let id = groups.tokens[k]
                        mask[Int(id >> 5)] |= 1 << (id & 31)
                    }
                }
            }
        }
    }
}

@inline(__always)
private func suffixEqual(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n { if a[i] != b[i] { return false }; i += 1 }
    return true
}
