import CGuidedAtomics
/// One frame of a parse stack: an automaton state and the frame below (an index into the node arena),
/// `StackEngine.bottom` for the bottom frame, or `StackEngine.hole` for "unknown, the cache walk stops
/// here". Stacks share their lower frames (a tree of frames in one flat arena), so pushing, forking a
/// configuration and backtracking are O(1).
struct StackNode: Hashable, Sendable {
    var state: Int32
    var parent: Int32
}

/// The pushdown machinery: a flat arena of frames and the scratch lists that steps and closures use.
/// Arrays only grow to their high-water mark and are truncated (keeping capacity), so steady-state
/// steps allocate nothing.
struct StackEngine: Sendable {
    static let bottom: Int32 = -1
    static let hole: Int32 = -2

    var nodes: [StackNode] = []
    /// Sets of stacks (node indices) under construction, as ranges.
    var items: [Int32] = []
    private var work: [Int32] = []
    private var visited: [Int] = []
    /// Past `linearLimit` stacks, the duplicate checks of `step` and `close` and the caller frames `close`
    /// reuses are looked up here instead of scanned: the scans were quadratic, and an ambiguous fuzzed
    /// grammar with ~1,000 live stacks took seconds per mask (a fuzz timeout of 2026-12-02).
    private var stepSeen = VisitedSet()
    private var closeSeen = VisitedSet()
    private var callers = VisitedSet()
    /// How many entries a step or closure scans in a plain list before it switches to a table: a scan
    /// of the one to three stacks a step usually has costs less than hashing.
    static let linearLimit = 16

    /// (state, frame below) as one key.
    @inline(__always)
    static func key(_ state: Int32, _ parent: Int32) -> Int {
        Int(Int64(bitPattern: UInt64(UInt32(bitPattern: state)) << 32 | UInt64(UInt32(bitPattern: parent))))
    }
    /// Scratch for compacting the arena after a commit.
    var remap: [Int32] = []
    /// Set when a closure exceeded `maxStacks`; the caller turns it into a sticky error.
    var overflow = false

    @inline(__always)
    mutating func make(_ state: Int32, _ parent: Int32) -> Int32 {
        nodes.append(StackNode(state: state, parent: parent))
        return Int32(nodes.count - 1)
    }

    @inline(__always)
    mutating func truncate(nodes n: Int, items i: Int) {
        // One element at a time: `removeLast(k)` goes through the generic `replaceSubrange`, which
        // costs more than the few elements a trie-walk step usually drops.
        while nodes.count > n { nodes.removeLast() }
        while items.count > i { items.removeLast() }
    }

    /// Moves every stack in `items[lo..<hi]` over a byte of class `cls`; appends the survivors (not yet
    /// closed) to `items` and returns their range start (end is `items.count`).
    @inline(__always)
    mutating func step(_ lo: Int, _ hi: Int, cls: Int, _ t: AutomatonTables) -> Int {
        let start = items.count
        var hashed = false
        var i = lo
        while i < hi {
            let n = nodes[Int(items[i])]
            let q = t.target(n.state, cls)
            if q >= 0 {
                // Same top state over the same frame below: one stack.
                var duplicate = false
                if hashed {
                    duplicate = !stepSeen.insert(Self.key(q, n.parent))
                } else {
                    var j = start
                    while j < items.count {
                        let m = nodes[Int(items[j])]
                        if m.state == q && m.parent == n.parent { duplicate = true; break }
                        j += 1
                    }
                }
                if !duplicate {
                    items.append(make(q, n.parent))
                    if !hashed && items.count - start > Self.linearLimit {
                        stepSeen.reset()
                        for j in start..<items.count {
                            let m = nodes[Int(items[j])]
                            _ = stepSeen.insert(Self.key(m.state, m.parent))
                        }
                        hashed = true
                    }
                }
            }
            i += 1
        }
        return start
    }

    /// Closes the stacks `items[lo..<hi]`: pushes the callee of every call edge, pops accepting tops into
    /// their callers, and appends the stacks whose top can read a byte. Returns the closed range and
    /// whether a stack emptied completely (`accept`) or popped into the hole (`hole`).
    mutating func close(_ lo: Int, _ hi: Int, _ t: AutomatonTables, maxStacks: Int) -> (lo: Int, hi: Int, accept: Bool, hole: Bool) {
        while !work.isEmpty { work.removeLast() }
        while !visited.isEmpty { visited.removeLast() }
        var i = hi
        while i > lo { i -= 1; work.append(items[i]) }
        let out = items.count
        let firstNew = nodes.count
        var accept = false, hole = false
        var visitedHashed = false, callersHashed = false
        while let id = work.popLast() {
            let n = nodes[Int(id)]
            let key = Self.key(n.state, n.parent)
            if visitedHashed {
                if !closeSeen.insert(key) { continue }
            } else if visited.contains(key) {
                continue
            }
            if visited.count >= maxStacks { overflow = true; break }
            visited.append(key)
            if !visitedHashed && visited.count > Self.linearLimit {
                closeSeen.reset()
                for k in visited { _ = closeSeen.insert(k) }
                visitedHashed = true
            }
            let f = t.stateFlags(n.state)
            if f & GrammarAutomaton.hasBytes != 0 { items.append(id) }
            if f & GrammarAutomaton.accepting != 0 {
                if n.parent >= 0 { work.append(n.parent) } else if n.parent == Self.bottom { accept = true } else { hole = true }
            }
            if f & GrammarAutomaton.hasCalls != 0 {
                var c = Int(guided_load_i32(t.callStart + Int(n.state)))
                let end = Int(guided_load_i32(t.callStart + (Int(n.state) + 1)))
                while c < end {
                    let callee = guided_load_i32(t.calls + 2 * c), ret = guided_load_i32(t.calls + (2 * c + 1))
                    // Reuse a caller frame made in this closure for the same (return state, below): the first
                    // node made here with that pair.
                    var caller: Int32 = -1
                    if callersHashed {
                        let next = Int32(nodes.count)
                        caller = callers.value(for: Self.key(ret, n.parent), inserting: next)
                        if caller == next { caller = make(ret, n.parent) }
                        let pushed = make(callee, caller)
                        _ = callers.value(for: Self.key(callee, caller), inserting: pushed)
                        work.append(pushed)
                    } else {
                        var k = firstNew
                        while k < nodes.count {
                            if nodes[k].state == ret && nodes[k].parent == n.parent { caller = Int32(k); break }
                            k += 1
                        }
                        if caller < 0 { caller = make(ret, n.parent) }
                        work.append(make(callee, caller))
                        if nodes.count - firstNew > Self.linearLimit {
                            callers.reset()
                            for k in firstNew..<nodes.count {
                                _ = callers.value(for: Self.key(nodes[k].state, nodes[k].parent), inserting: Int32(k))
                            }
                            callersHashed = true
                        }
                    }
                    c += 1
                }
            }
        }
        return (out, items.count, accept, hole)
    }
}
