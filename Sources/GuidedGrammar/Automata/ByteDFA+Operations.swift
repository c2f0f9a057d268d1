/// Boolean operations (products), trimming and minimization.
extension ByteDFA {
    /// Strings accepted by both.
    public func intersection(_ other: ByteDFA, limits: AutomatonLimits = .default) throws(AutomatonError) -> ByteDFA {
        try product(other, limit: limits.maxDFAStates, dead: { $0 || $1 }, accept: { $0 && $1 })
    }

    /// Strings accepted by either.
    public func union(_ other: ByteDFA, limits: AutomatonLimits = .default) throws(AutomatonError) -> ByteDFA {
        try product(other, limit: limits.maxDFAStates, dead: { $0 && $1 }, accept: { $0 || $1 })
    }

    /// Strings accepted by `self` but not by `other`.
    public func subtracting(_ other: ByteDFA, limits: AutomatonLimits = .default) throws(AutomatonError) -> ByteDFA {
        try product(other, limit: limits.maxDFAStates, dead: { a, _ in a }, accept: { $0 && !$1 })
    }

    /// The complement relative to an alphabet language: strings of `alphabet` that `self` rejects.
    /// (A complement over all byte strings would admit invalid UTF-8 or unescaped quotes; the caller
    /// says what "any string" means, e.g. valid JSON-string-content bytes.)
    public func complement(within alphabet: ByteDFA, limits: AutomatonLimits = .default) throws(AutomatonError) -> ByteDFA {
        try alphabet.subtracting(self, limits: limits)
    }

    /// Whether every string `self` accepts is accepted by `other`.
    public func isSubset(of other: ByteDFA, limits: AutomatonLimits = .default) throws(AutomatonError) -> Bool {
        try subtracting(other, limits: limits).isEmpty
    }

    /// The product automaton. `dead(aDead, bDead)` says when a pair can never accept (so it is not
    /// explored); `accept(aAccepts, bAccepts)` combines acceptance. The result is minimized.
    func product(_ other: ByteDFA, limit: Int, dead: (Bool, Bool) -> Bool, accept: (Bool, Bool) -> Bool) throws(AutomatonError) -> ByteDFA {
        let (classOf, classPairs) = pairedClasses(with: other)
        let classCount = classPairs.count

        // Pair numbers: a flat table when the pair space is small (hashing a pair per edge was most of
        // a long string intersection's product), else a dictionary.
        let width = other.stateCount + 1
        let useFlat = (stateCount + 1) * width <= 1 << 20
        var flatIDs = useFlat ? [Int32](repeating: -1, count: (stateCount + 1) * width) : []
        var ids: [Int: Int32] = [:]
        var pairs: [(Int32, Int32)] = []
        var table: [Int32] = []
        var accepting: [Bool] = []
        let budget = CompileBudget.current
        func add(_ a: Int32, _ b: Int32) throws(AutomatonError) -> Int32 {
            // One number per pair (-1, the dead side, shifted to 0), the flat table's index or the key.
            let pair = (Int(a) + 1) * width + Int(b) + 1
            if let id = useFlat ? (flatIDs[pair] >= 0 ? flatIDs[pair] : nil) : ids[pair] { return id }
            guard pairs.count < limit else { throw .tooManyStates(limit: limit) }
            if pairs.count & 255 == 255, let spent = budget?.exceeded { throw .budgetExceeded(spent) }
            let id = Int32(pairs.count)
            if useFlat { flatIDs[pair] = id } else { ids[pair] = id }
            pairs.append((a, b))
            accepting.append(accept(a >= 0 && self.accepting[Int(a)], b >= 0 && other.accepting[Int(b)]))
            table.append(contentsOf: repeatElement(-1, count: classCount))
            return id
        }
        _ = try add(0, 0)
        var i = 0
        while i < pairs.count {
            let (a, b) = pairs[i]
            for c in 0..<classCount {
                let (ca, cb) = classPairs[c]
                let ta: Int32 = a < 0 ? -1 : self.table[Int(a) * self.classCount + ca]
                let tb: Int32 = b < 0 ? -1 : other.table[Int(b) * other.classCount + cb]
                if dead(ta < 0, tb < 0) { continue }
                table[i * classCount + c] = try add(ta, tb)
            }
            i += 1
        }
        return ByteDFA(classOf: classOf, classCount: classCount, table: table, accepting: accepting).minimized()
    }

    /// The byte classes of an automaton over the pairs of `self`'s and `other`'s states: one per pair of
    /// classes some byte has (each class's pair of classes).
    func pairedClasses(with other: ByteDFA) -> (classOf: [UInt8], pairs: [(Int, Int)]) {
        var pairClass: [Int: Int] = [:]
        var classOf = [UInt8](repeating: 0, count: 256)
        var pairs: [(Int, Int)] = []
        for b in 0..<256 {
            let key = Int(self.classOf[b]) * 256 + Int(other.classOf[b])
            if let c = pairClass[key] { classOf[b] = UInt8(c); continue }
            pairClass[key] = pairs.count
            classOf[b] = UInt8(pairs.count)
            pairs.append((Int(self.classOf[b]), Int(other.classOf[b])))
        }
        return (classOf, pairs)
    }

    /// Per state: reachable from the start and able to reach acceptance.
    public func liveStates() -> [Bool] {
        let n = stateCount
        var reachable = [Bool](repeating: false, count: n)
        var stack: [Int32] = [0]
        reachable[0] = true
        var reverse = [[Int32]](repeating: [], count: n)
        while let s = stack.popLast() {
            for c in 0..<classCount {
                let t = table[Int(s) * classCount + c]
                guard t >= 0 else { continue }
                reverse[Int(t)].append(s)
                if !reachable[Int(t)] { reachable[Int(t)] = true; stack.append(t) }
            }
        }
        var live = [Bool](repeating: false, count: n)
        for s in 0..<n where reachable[s] && accepting[s] { live[s] = true; stack.append(Int32(s)) }
        while let s = stack.popLast() {
            for p in reverse[Int(s)] where !live[Int(p)] { live[Int(p)] = true; stack.append(p) }
        }
        return live
    }

    /// The minimal equivalent DFA: unreachable and dead states removed, equivalent states merged
    /// (Moore's partition refinement), equivalent byte classes merged, states numbered in BFS order.
    public func minimized() -> ByteDFA {
        let n = stateCount
        let live = liveStates()
        guard live[0] else { return .emptyLanguage }

        var block = Self.hopcroftBlocks(table: table, classCount: classCount, accepting: accepting, live: live)
        let blockCount = (block.max() ?? -1) + 1
        for s in 0..<n where !live[s] { block[s] = -1 }
        let blockCountInt = Int(blockCount)
        // Number blocks in BFS order from the start block.
        var representative = [Int](repeating: -1, count: blockCountInt)
        for s in 0..<n where live[s] && representative[Int(block[s])] < 0 { representative[Int(block[s])] = s }
        var order = [Int32](repeating: -1, count: blockCountInt)
        var queue: [Int32] = [block[0]]
        order[Int(block[0])] = 0
        var head = 0
        while head < queue.count {
            let rep = representative[Int(queue[head])]
            head += 1
            for c in 0..<classCount {
                let t = table[rep * classCount + c]
                guard t >= 0, live[Int(t)] else { continue }
                let bt = block[Int(t)]
                if order[Int(bt)] < 0 { order[Int(bt)] = Int32(queue.count); queue.append(bt) }
            }
        }

        // Merge byte classes whose columns agree. (Compared with the kept columns directly: two columns
        // usually differ within a few entries, while hashing every column whole was a tenth of
        // minimizing a long string intersection.)
        var keptColumns: [[Int32]] = []
        var classMap = [Int](repeating: 0, count: classCount)
        var keptClasses: [Int] = []
        for c in 0..<classCount {
            var column = [Int32](repeating: -1, count: blockCountInt)
            for (i, b) in queue.enumerated() {
                let t = table[representative[Int(b)] * classCount + c]
                column[i] = t >= 0 && live[Int(t)] ? order[Int(block[Int(t)])] : -1
            }
            if let id = keptColumns.firstIndex(of: column) { classMap[c] = id } else {
                classMap[c] = keptClasses.count
                keptColumns.append(column)
                keptClasses.append(c)
            }
        }
        let newClassCount = keptClasses.count
        var newTable = [Int32](repeating: -1, count: blockCountInt * newClassCount)
        var newAccepting = [Bool](repeating: false, count: blockCountInt)
        for (i, b) in queue.enumerated() {
            let rep = representative[Int(b)]
            newAccepting[i] = accepting[rep]
            for (nc, c) in keptClasses.enumerated() {
                let t = table[rep * classCount + c]
                newTable[i * newClassCount + nc] = t >= 0 && live[Int(t)] ? order[Int(block[Int(t)])] : -1
            }
        }
        let newClassOf = (0..<256).map { UInt8(classMap[Int(classOf[$0])]) }
        return ByteDFA(classOf: newClassOf, classCount: newClassCount, table: newTable, accepting: newAccepting)
    }

    /// Hopcroft's partition refinement over the live states (dead and non-live states form one
    /// implicit sink). Returns a block number per state (meaningful for live states only), with the
    /// blocks numbered densely from 0. - Complexity: O(k·n·log n) for n states and k classes.
    static func hopcroftBlocks(table: [Int32], classCount k: Int, accepting: [Bool], live: [Bool]) -> [Int32] {
        let n = live.count
        let sink = n  // stands for -1 and every non-live state
        let total = n + 1
        func target(_ s: Int, _ c: Int) -> Int {
            if s == sink { return sink }
            let t = Int(table[s * k + c])
            return t >= 0 && live[t] ? t : sink
        }
        // The sink and the non-live states form a block of their own that is never a splitter: every live
        // state can reach acceptance, so none is equivalent to them, and Hopcroft's algorithm may leave
        // any one initial block out of the worklist. Their inverse transitions (every missing edge of a
        // sparse automaton points at the sink: most of the table) are then never needed, so they are not
        // even stored. Inverse transitions per class into live states, as CSR arrays.
        var inverseStart = [Int](repeating: 0, count: k * total + 1)
        for s in 0..<n where live[s] {
            for c in 0..<k { let t = target(s, c); if t != sink { inverseStart[c * total + t + 1] += 1 } }
        }
        for i in 0..<(k * total) { inverseStart[i + 1] += inverseStart[i] }
        var fill = inverseStart
        var inverse = [Int32](repeating: 0, count: inverseStart[k * total])
        for s in 0..<n where live[s] {
            for c in 0..<k {
                let t = target(s, c)
                guard t != sink else { continue }
                let key = c * total + t
                inverse[fill[key]] = Int32(s)
                fill[key] += 1
            }
        }

        // Partition as one array of elements; each block is a contiguous slice. Initial blocks: the sink
        // with the non-live states, the live non-accepting states, the live accepting states. The
        // refinement loop below runs on raw buffers sized for the worst case (every block holds at least
        // one of the `total` states): with array accessors, bounds and uniqueness checks were most of
        // its time on a long string intersection.
        func buffer<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
            b.initialize(repeating: value)
            return b
        }
        let elements = buffer(total, 0), location = buffer(total, 0), blockOf = buffer(total, 0)
        let first = buffer(total + 1, 0), end = buffer(total + 1, 0), marked = buffer(total + 1, 0)
        let inWorklist = buffer((total + 1) * k, false)
        let splitter = buffer(total, 0)
        let touched = buffer(total + 1, 0)
        defer {
            for b in [elements, location, blockOf, first, end, marked, splitter, touched] { b.deallocate() }
            inWorklist.deallocate()
        }
        var blockCount = 0
        // Worklist entries are block · k + class.
        var worklist: [Int] = []
        var position = 0
        let sinkSide = [sink] + (0..<n).filter { !live[$0] }
        let rejecting = (0..<n).filter { live[$0] && !accepting[$0] }
        let acceptingStates = (0..<n).filter { live[$0] && accepting[$0] }
        for (i, group) in [sinkSide, rejecting, acceptingStates].enumerated() where !group.isEmpty {
            let b = blockCount
            blockCount += 1
            first[b] = position; end[b] = position + group.count
            for st in group { elements[position] = st; location[st] = position; blockOf[st] = b; position += 1 }
            if i > 0 { for c in 0..<k { worklist.append(b * k + c); inWorklist[b * k + c] = true } }
        }

        inverseStart.withUnsafeBufferPointer { inverseStart in
        inverse.withUnsafeBufferPointer { inverse in
            while let entry = worklist.popLast() {
                inWorklist[entry] = false
                let b = entry / k, c = entry % k
                // The splitter's states are copied out first: marking reorders elements inside blocks,
                // its own included.
                let size = end[b] - first[b]
                for i in 0..<size { splitter[i] = elements[first[b] + i] }
                var touchedCount = 0
                for j in 0..<size {
                    let key = c * total + splitter[j]
                    for i in inverseStart[key]..<inverseStart[key + 1] {
                        let p = Int(inverse[i])
                        let y = blockOf[p]
                        let pos = location[p]
                        let boundary = first[y] + marked[y]
                        guard pos >= boundary else { continue }  // already marked
                        if marked[y] == 0 { touched[touchedCount] = y; touchedCount += 1 }
                        let other = elements[boundary]
                        elements[boundary] = p; location[p] = boundary
                        elements[pos] = other; location[other] = pos
                        marked[y] += 1
                    }
                }
                for t in 0..<touchedCount {
                    let y = touched[t]
                    let m = marked[y]
                    marked[y] = 0
                    let size = end[y] - first[y]
                    guard m < size else { continue }
                    // Split: the marked prefix becomes a new block.
                    let z = blockCount
                    blockCount += 1
                    first[z] = first[y]; end[z] = first[y] + m; marked[z] = 0
                    first[y] += m
                    for i in first[z]..<end[z] { blockOf[elements[i]] = z }
                    let smaller = m <= size - m ? z : y
                    for a in 0..<k {
                        if inWorklist[y * k + a] {
                            worklist.append(z * k + a); inWorklist[z * k + a] = true
                        } else {
                            worklist.append(smaller * k + a); inWorklist[smaller * k + a] = true
                        }
                    }
                }
            }
        }
        }

        // Dense numbering of the blocks that hold live states.
        var number = [Int32](repeating: -1, count: blockCount)
        var next: Int32 = 0
        var result = [Int32](repeating: -1, count: n)
        let sinkBlock = blockOf[sink]
        for s in 0..<n where live[s] {
            let b = blockOf[s]
            // A live state can reach acceptance, so it is never equivalent to the dead sink.
            assert(b != sinkBlock, "a live state cannot be equivalent to the dead state")
            if number[b] < 0 { number[b] = next; next += 1 }
            result[s] = number[b]
        }
        return result
    }
}
