import CGuidedAtomics
import GuidedTokenizers

/// Per-depth state of a token-trie walk: the stacks after the bytes of the current trie path up to that
/// depth. Restoring depth d when the walk moves to a sibling or an uncle is O(1): truncate the arena and
/// the item list back to that depth's marks.
///
/// Most of the time the configuration is one stack whose top frame is a plain state (reads bytes, no
/// calls, not accepting) over some frame below (`parent`: the walk's base, or a frame pushed on the way,
/// e.g. after entering a kept rule): then the depth holds just the state (`simple >= 0`) and a byte is
/// one table lookup. Otherwise it holds a set of stacks (`items[lo..<hi]`).
struct DepthState: Sendable {
    var simple: Int32 = -1
    var parent: Int32 = 0
    var lo: Int32 = 0
    var hi: Int32 = 0
    var nodeMark: Int32 = 0
    var itemMark: Int32 = 0
    /// Some path up to here popped into the hole (cache walks only).
    var hole: Bool = false
    /// The first pop into the hole was on the last byte: the next byte is the first the caller reads.
    var freshHole: Bool = false
}

/// The nodes of a token trie to walk: the whole vocabulary's, or a slice's rest.
struct TrieView {
    let nodes: UnsafeMutablePointer<TokenTrie.Node>
    let count: Int
    let maxDepth: Int
}

struct WalkScratch: Sendable {
    var depths: [DepthState] = []
    /// One bit per mask word that an entry's walk set a token in (`buildEntry`).
    var touched: [UInt64] = []
    /// The tail groups `walkSuffixes` still has to read after its plain-tail shortcut.
    var groups: [Int32] = []
    var byteCount: Int { depths.capacity * MemoryLayout<DepthState>.stride + touched.capacity * 8 + groups.capacity * 4 }
}

enum StepResult: UInt8 {
    case rejected, accepted, dead, live
}

extension GrammarMatcher {
    /// Starts a walk from one stack (`node` over its own parent, or over `parent` if given).
    @inline(__always)
    mutating func beginWalk(state: Int32, base: Int32, maxDepth: Int) {
        if walk.depths.count < maxDepth + 2 {
            walk.depths = [DepthState](repeating: DepthState(), count: maxDepth + 2)
        }
        walk.depths[0] = DepthState(simple: state, parent: base, lo: 0, hi: 0, nodeMark: Int32(engine.nodes.count),
                                    itemMark: Int32(engine.items.count), hole: false)
    }

    /// Computes depth `d + 1` from depth `d` over `byte`, in general (sets of stacks, pushes, pops).
    /// With `needClose == false` (a trie leaf) only reports whether the byte is readable.
    @inline(never)
    mutating func slowStep(_ depths: UnsafeMutablePointer<DepthState>, _ d: Int, byte: UInt8, base: Int32,
                           needClose: Bool, _ t: AutomatonTables) -> StepResult {
        let ds = depths[d]
        engine.truncate(nodes: Int(ds.nodeMark), items: Int(ds.itemMark))
        let cls = Int(t.classOf[Int(byte)])
        var raw: Int
        if ds.simple >= 0 {
            let q = t.target(ds.simple, cls)
            if q < 0 { return .rejected }
            if !needClose { return .accepted }
            if t.stateFlags(q) == GrammarAutomaton.hasBytes {
                depths[d + 1] = DepthState(simple: q, parent: ds.parent, lo: 0, hi: 0, nodeMark: ds.nodeMark, itemMark: ds.itemMark, hole: ds.hole)
                return .live
            }
            raw = engine.items.count
            engine.items.append(engine.make(q, ds.parent))
        } else {
            if ds.lo == ds.hi { return .rejected }
            raw = engine.step(Int(ds.lo), Int(ds.hi), cls: cls, t)
            if raw == engine.items.count { return .rejected }
            if !needClose { return .accepted }
        }
        let c = engine.close(raw, engine.items.count, t, maxStacks: compiled.limits.maxStacks)
        var next = DepthState(simple: -1, parent: 0, lo: Int32(c.lo), hi: Int32(c.hi), nodeMark: Int32(engine.nodes.count),
                              itemMark: Int32(engine.items.count), hole: ds.hole || c.hole, freshHole: !ds.hole && c.hole)
        if c.hi - c.lo == 1 {
            let n = engine.nodes[Int(engine.items[c.lo])]
            if t.stateFlags(n.state) == GrammarAutomaton.hasBytes { next.simple = n.state; next.parent = n.parent }
        }
        depths[d + 1] = next
        return c.hi == c.lo ? .dead : .live
    }

    /// Walks the whole token trie from one stack, setting the bits of the tokens it allows.
    /// In a cache walk (`base == StackEngine.hole`), tokens whose fate depends on the unknown frames
    /// below are appended to `uncertain` instead; returns false if they exceed `maxUncertain` (or the
    /// suffix pairs below exceed `maxSuffixes`). With
    /// `followRule` (the rule of `state`), a token whose byte right after that rule's return is outside
    /// the rule's follow set (`RuleFollow`) is rejected there instead: no caller can read it.
    /// A token whose only live path is the return itself, right before byte k, goes to `suffixes`
    /// instead, as `token << 16 | k`: its fate is whether the caller reads its bytes from k on, which
    /// tokens with the same tail share (`SuffixGroups`).
    ///
    /// With `touched`, the bit of each mask word it sets a token in is set there too (word w: bit w & 63
    /// of `touched[w >> 6]`), so that an entry lists its tokens without scanning the whole bitmask.
    ///
    /// The loop inlines the common case (one stack, plain top state: one table lookup per trie node)
    /// and calls `slowStep` for the rest.
    ///
    /// A part of the trie (`TriePart`): `nodes`, whole subtrees side by side, and, when they are the
    /// children of a first-level node (`below`), read after that node's byte; walking every part of a
    /// `TriePart.split` in order sets the bits and lists the tokens the whole walk does.
    @inline(never)
    mutating func walkTrie(state: Int32, base: Int32, mask: UnsafeMutablePointer<UInt32>,
                           uncertain: inout [UInt32], suffixes: inout [UInt64], maxUncertain: Int, maxSuffixes: Int = 0,
                           trie view: TrieView? = nil, followRule: Int = -1, classSkip: ClassSkip? = nil,
                           nodes range: Range<Int>? = nil, below parent: Int = -1,
                           touched: UnsafeMutablePointer<UInt64>? = nil) -> Bool {
        let t = compiled.tables
        precondition(classSkip == nil || view == nil, "a class skip reads the summaries of the vocabulary's whole trie")
        let view = view ?? TrieView(nodes: t.trie, count: t.trieCount, maxDepth: t.trieMaxDepth)
        beginWalk(state: state, base: base, maxDepth: view.maxDepth)
        var depthArray = walk.depths
        walk.depths = []
        defer { walk.depths = depthArray }
        let skipping = classSkip != nil
        let skip = classSkip
        return depthArray.withUnsafeMutableBufferPointer { buffer -> Bool in
            let depths = buffer.baseAddress!
            let trie = view.nodes
            let count = view.count
            let next = t.next, flags = t.flags, classOf = t.classOf, classCount = t.classCount
            let relative = base == StackEngine.hole
            var i = range?.lowerBound ?? 0
            let end = range?.upperBound ?? count
            if parent >= 0 {
                // The first-level node's byte, as the loop reads it: its token, and what the walk does
                // where it is not live, belong to the part that holds the node itself. (A subtree the
                // class skip covers would find nothing new: skipped here as the whole walk skips it.)
                let node = trie[parent]
                if skipping && skip.unsafelyUnwrapped.covers(parent, atDepth: 1) { return true }
                let ds = depths[0]
                let q = t.target(ds.simple, Int(classOf[Int(node.byte)]))
                if q < 0 { return true }
                if t.stateFlags(q) == GrammarAutomaton.hasBytes {
                    depths[1] = DepthState(simple: q, parent: ds.parent, lo: 0, hi: 0, nodeMark: ds.nodeMark, itemMark: ds.itemMark, hole: ds.hole)
                } else if slowStep(depths, 0, byte: node.byte, base: base, needClose: true, t) != .live {
                    return true
                }
            }
            while i < end {
                let node = trie[i]
                let d = node.depth - 1
                let size = node.subtreeSize
                if skipping {
                    // Every token of a subtree over the class, or over its narrower one (the node's own
                    // among them), short enough, is a member: already set.
                    if skip.unsafelyUnwrapped.covers(i, atDepth: d + 1) {
                        i += size
                        continue
                    }
                }
                let ds = depths[d]
                let r: StepResult
                if ds.simple >= 0 {
                    let cls = Int(classOf[Int(node.byte)])
                    var q = guided_load_i32(next + (Int(ds.simple) &* classCount &+ cls))
                    if q == 0 { q = t.automaton.materialize(ds.simple, cls) }
                    if q < 0 {
                        r = .rejected
                    } else if size == 1 {
                        r = .accepted
                    } else if guided_load_u8(flags + Int(q)) == GrammarAutomaton.hasBytes {
                        depths[d + 1] = DepthState(simple: q, parent: ds.parent, lo: 0, hi: 0, nodeMark: ds.nodeMark, itemMark: ds.itemMark, hole: ds.hole)
                        r = .live
                    } else {
                        r = slowStep(depths, d, byte: node.byte, base: base, needClose: true, t)
                    }
                } else {
                    r = slowStep(depths, d, byte: node.byte, base: base, needClose: size > 1, t)
                }
                switch r {
                case .rejected:
                    // Only the hole may still read this byte. Right after the return, the caller reads it
                    // first: no token goes on unless the byte may follow the rule.
                    if relative && ds.hole {
                        if !ds.freshHole {
                            if !collect(trie, i, i + size, into: &uncertain, max: maxUncertain) { return false }
                        } else if followRule < 0 || t.automaton.follow.follows(followRule, Int(classOf[Int(node.byte)])) {
                            if !collectSuffixes(trie, i, i + size, at: d, into: &suffixes, max: maxSuffixes) { return false }
                        }
                    }
                    i += size
                case .accepted, .live:
                    if node.hasToken {
                        let tok = node.token
                        mask[Int(tok >> 5)] |= 1 << (tok & 31)
                        touched?[Int(tok >> 11)] |= 1 << UInt64((tok >> 5) & 63)
                    }
                    i += 1
                case .dead:
                    if node.hasToken {
                        let tok = node.token
                        mask[Int(tok >> 5)] |= 1 << (tok & 31)
                        touched?[Int(tok >> 11)] |= 1 << UInt64((tok >> 5) & 63)
                    }
                    if relative && depths[d + 1].hole {
                        if depths[d + 1].freshHole {
                            // Each child's byte is the caller's first: keep only the subtrees it may read.
                            var j = i + 1
                            while j < i + size {
                                let child = trie[j], end = j + child.subtreeSize
                                if followRule < 0 || t.automaton.follow.follows(followRule, Int(classOf[Int(child.byte)])) {
                                    if !collectSuffixes(trie, j, end, at: d + 1, into: &suffixes, max: maxSuffixes) {
                                        return false
                                    }
                                }
                                j = end
                            }
                        } else if !collect(trie, i + 1, i + size, into: &uncertain, max: maxUncertain) {
                            return false
                        }
                    }
                    i += size
                }
            }
            return true
        }
    }

    /// Appends `token << 16 | depth` for the tokens of `trie[from..<to]` (their first `depth` bytes read
    /// before the return).
    private func collectSuffixes(_ trie: UnsafeMutablePointer<TokenTrie.Node>, _ from: Int, _ to: Int, at depth: Int,
                                 into list: inout [UInt64], max: Int) -> Bool {
        var j = from
        while j < to {
            if trie[j].hasToken {
                list.append(UInt64(trie[j].token) << 16 | UInt64(depth))
                if list.count > max { return false }
            }
            j += 1
        }
        return true
    }

    private func collect(_ trie: UnsafeMutablePointer<TokenTrie.Node>, _ from: Int, _ to: Int,
                         into list: inout [UInt32], max: Int) -> Bool {
        var j = from
        while j < to {
            if trie[j].hasToken {
                list.append(trie[j].token)
                if list.count > max { return false }
            }
            j += 1
        }
        return true
    }

    /// Checks each of `tokens` (in trie order) against one real stack, sharing the work of common
    /// prefixes and skipping every token that extends a rejected prefix.
    mutating func walkTokens(_ tokens: UnsafeBufferPointer<UInt32>, state: Int32, base: Int32, mask: UnsafeMutablePointer<UInt32>) {
        let t = compiled.tables
        beginWalk(state: state, base: base, maxDepth: t.trieMaxDepth)
        var depthArray = walk.depths
        walk.depths = []
        defer { walk.depths = depthArray }
        let bytes = t.tokenBytes, offsets = t.tokenOffsets
        depthArray.withUnsafeMutableBufferPointer { buffer in
            readStrings(tokens.count, buffer.baseAddress!, base: base, t, string: { k in
                let start = Int(offsets[Int(tokens[k])])
                return (bytes + start, Int(offsets[Int(tokens[k]) + 1]) - start)
            }, accept: { k in
                let tok = tokens[k]
                mask[Int(tok >> 5)] |= 1 << (tok & 31)
            })
        }
    }

    /// Reads byte strings in turn from the configuration at `depths[0]`: each from the depth up to which
    /// it shares its bytes with the previous string (that prefix is read once), none that extends a
    /// prefix already rejected. `accept(k)` is called for each string k read to its end. Sorted strings
    /// share the most. The common case (one stack, plain top state) is one table lookup per byte.
    @inline(__always)
    mutating func readStrings(_ count: Int, _ depths: UnsafeMutablePointer<DepthState>, base: Int32, _ t: AutomatonTables,
                              string: (Int) -> (UnsafeMutablePointer<UInt8>, Int), accept: (Int) -> Void) {
        var prev = t.tokenBytes, prevLength = 0, valid = 0
        var fail = t.tokenBytes, failLength = 0
        for k in 0..<count {
            let (bytes, length) = string(k)
            if failLength > 0 {
                if length >= failLength && memcmpEqual(bytes, fail, failLength) { continue }
                failLength = 0
            }
            var d = 0
            let limit = min(valid, length, prevLength)
            while d < limit && bytes[d] == prev[d] { d += 1 }
            var ok = true
            while d < length {
                let byte = bytes[d]
                let ds = depths[d]
                var r = StepResult.live
                if ds.simple >= 0 {
                    let q = t.target(ds.simple, Int(t.classOf[Int(byte)]))
                    if q < 0 {
                        r = .rejected
                    } else if t.stateFlags(q) == GrammarAutomaton.hasBytes {
                        depths[d + 1] = DepthState(simple: q, parent: ds.parent, lo: 0, hi: 0, nodeMark: ds.nodeMark, itemMark: ds.itemMark, hole: ds.hole)
                    } else {
                        r = slowStep(depths, d, byte: byte, base: base, needClose: true, t)
                    }
                } else {
                    r = slowStep(depths, d, byte: byte, base: base, needClose: true, t)
                }
                if r == .rejected {
                    fail = bytes; failLength = d + 1
                    ok = false
                    break
                }
                d += 1
            }
            valid = d
            prev = bytes; prevLength = length
            if ok { accept(k) }
        }
    }
}

@inline(__always)
private func memcmpEqual(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n { if a[i] != b[i] { return false }; i += 1 }
    return true
}
