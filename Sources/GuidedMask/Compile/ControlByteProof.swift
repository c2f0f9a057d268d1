/// Which NFA states, after any plain text (`SliceUTF8`), can never read a control byte (U+0000–U+001F):
/// every state their plain text reaches, at a character boundary, has no byte edge on a class holding
/// a control byte, and no state on the way calls a rule, ends its rule or cuts a token budget (each of
/// those would hand the next byte to another rule, which might read it).
///
/// Inside a JSON string that always holds (JSON text has no raw control character), and it lets a string
/// state's first visit skip every token made of plain text and then a control byte (Qwen2: 3,078 tokens
/// such as `.\n` or `):\n\t`, two thirds of the nodes of the unbounded slice's rest trie): each of them
/// would be walked to its control byte only to die there (`TokenSlice.textRest`).
///
/// The answer is kept per NFA state: a start whose exploration passes proves every boundary state it
/// reached (their plain text reaches a subset of what the start's does); a start that fails is marked as
/// not proved, which only costs the walk the skip would have spared. An exploration is bounded by what
/// that walk costs (a few tens of microseconds): past its budget every state it reached is marked as not
/// proved too, so a large region (the first key of an object with a hundred declared names: 2,000 pairs
/// and 22,000 closure states, 0.8 ms) is given up once instead of explored again from each of its states.
struct ControlByteProof {
    /// Per NFA state: 0 not known, 1 proved, 2 not proved.
    private let known: ZeroedTable<UInt8>
    /// Pairs (state, position) of the exploration under way, in order, and which are taken: per NFA
    /// state the start of its ten position slots in `slotTaken` plus one (0: none yet), given out as the
    /// exploration meets the state and cleared after it (a table of ten slots per NFA state would be
    /// megabytes for a large schema, and a hashed set cost more than the exploration's other work).
    private var pairs: [(state: Int32, u: UInt8)] = []
    private let slotBase: ZeroedTable<Int32>
    private var slotTaken: [Bool] = []
    private var slotStates: [Int32] = []
    /// Per NFA state: `stamp` when it is in the ε-closure being made.
    private let closureMark: ZeroedTable<UInt32>
    private var stamp: UInt32 = 0
    private var closure: [Int32] = []
    /// The positions plain bytes of class `cls` lead to from position `u`:
    /// `plainNext[plainNextStart[k] ..< plainNextStart[k + 1]]`, `k = u * classCount + cls` (flat: a
    /// scan of the position's pairs per class was most of an exploration's time).
    private let plainNext: [UInt8]
    private let plainNextStart: [Int32]
    private let classCount: Int
    private let controlClass: [Bool]
    private let textStates = SliceUTF8.stateCount

    /// Pairs one exploration may visit, and closure states it may make; past either it gives up.
    static let maxPairs = 256
    static let maxClosureStates = 2_048

    /// `sliceEdges[u]`: the (class, next position) pairs of `SliceUTF8` position `u`; `classOf`: the
    /// byte class of each byte.
    init(stateCount: Int, classCount: Int, sliceEdges: [[(cls: Int, u: UInt8)]], classOf: [UInt8]) {
        known = ZeroedTable(count: stateCount)
        closureMark = ZeroedTable(count: stateCount)
        slotBase = ZeroedTable(count: stateCount)
        self.classCount = classCount
        // A counting sort of the (position, class) pairs: two allocations, not one array per pair (made
        // at the first question of every grammar).
        var start = [Int32](repeating: 0, count: sliceEdges.count * classCount + 1)
        for (u, edges) in sliceEdges.enumerated() {
            for (cls, _) in edges where cls < classCount { start[u * classCount + cls + 1] += 1 }
        }
        for k in 1..<start.count { start[k] += start[k - 1] }
        var next = [UInt8](repeating: 0, count: Int(start[start.count - 1]))
        var fill = start
        for (u, edges) in sliceEdges.enumerated() {
            for (cls, v) in edges where cls < classCount {
                next[Int(fill[u * classCount + cls])] = v
                fill[u * classCount + cls] += 1
            }
        }
        plainNext = next
        plainNextStart = start
        var control = [Bool](repeating: false, count: classCount)
        for b in 0..<0x20 where Int(classOf[b]) < classCount { control[Int(classOf[b])] = true }
        controlClass = control
    }

    /// True when every member of `set` (a deterministic state's NFA states) is proved.
    mutating func holds(for set: some Collection<Int32>, nfa: GrammarNFA) -> Bool {
        for s in set {
            switch known[Int(s)] {
            case 1: continue
            case 2: return false
            default: if !prove(s, nfa: nfa) { return false }
            }
        }
        return !set.isEmpty
    }

    private mutating func nextStamp() -> UInt32 {
        stamp &+= 1
        if stamp == 0 {
            closureMark.clear()
            stamp = 1
        }
        return stamp
    }

    private mutating func prove(_ start: Int32, nfa: GrammarNFA) -> Bool {
        pairs.removeAll(keepingCapacity: true)
        var overBudget = false
        var closureStates = 0
        defer {
            for x in slotStates { slotBase[Int(x)] = 0 }
            slotStates.removeAll(keepingCapacity: true)
            slotTaken.removeAll(keepingCapacity: true)
        }
        func visit(_ s: Int32, _ u: UInt8) -> Bool {
            var base = Int(slotBase[Int(s)]) - 1
            if base < 0 {
                base = slotTaken.count
                slotTaken.append(contentsOf: repeatElement(false, count: textStates))
                slotBase[Int(s)] = Int32(base + 1)
                slotStates.append(s)
            }
            if slotTaken[base + Int(u)] { return true }
            guard pairs.count < Self.maxPairs else { overBudget = true; return false }
            slotTaken[base + Int(u)] = true
            pairs.append((s, u))
            return true
        }
        _ = visit(start, SliceUTF8.boundary)
        var next = 0
        var passed = true
        explore: while next < pairs.count {
            let (s, u) = pairs[next]
            next += 1
            if u == SliceUTF8.boundary && known[Int(s)] == 1 { continue }
            if u == SliceUTF8.boundary && known[Int(s)] == 2 { passed = false; break }
            let c = nextStamp()
            closure.removeAll(keepingCapacity: true)
            closure.append(s)
            closureMark[Int(s)] = c
            var i = 0
            while i < closure.count {
                let z = Int(closure[i])
                i += 1
                closureStates += 1
                if closureStates > Self.maxClosureStates { overBudget = true; passed = false; break explore }
                if nfa.label[z] == GrammarNFA.labelCall || nfa.isFinal[z] || nfa.isCut[z] { passed = false; break explore }
                for e in Int(nfa.epsilonStart[z])..<Int(nfa.epsilonStart[z + 1]) {
                    let t = nfa.epsilonTargets[e]
                    if closureMark[Int(t)] != c { closureMark[Int(t)] = c; closure.append(t) }
                }
                guard nfa.label[z] == GrammarNFA.labelClasses else { continue }
                let target = nfa.target[z]
                for k in Int(nfa.labelLow[z])..<Int(nfa.labelHigh[z]) {
                    let cls = Int(nfa.classList[k])
                    // Symbol classes (token terminals, budgets) lie past the byte classes: no byte reads them.
                    guard cls < controlClass.count else { continue }
                    if u == SliceUTF8.boundary && controlClass[cls] { passed = false; break explore }
                    let k = Int(u) * classCount + cls
                    for j in Int(plainNextStart[k])..<Int(plainNextStart[k + 1]) where !visit(target, plainNext[j]) {
                        passed = false
                        break explore
                    }
                }
            }
        }
        if passed {
            for (s, u) in pairs where u == SliceUTF8.boundary { known[Int(s)] = 1 }
        } else if overBudget {
            for (s, u) in pairs where u == SliceUTF8.boundary && known[Int(s)] == 0 { known[Int(s)] = 2 }
        } else {
            known[Int(start)] = 2
        }
        return passed
    }
}
