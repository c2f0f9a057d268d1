/// The product of several byte automata run side by side, whose accepting states carry a label: which
/// of the components accept there, as the caller sorts it.
///
/// A `patternProperties` object splits undeclared names by which patterns they match, and each part has
/// its own value schema. Written as one automaton per part, the parts share every prefix, and the mask
/// engine's deterministic state at a key position is their union: with unanchored patterns (a key
/// containing `github`, one containing `hipchat`) each of its successors was a union of hundreds of
/// NFA states, a thousand built on the first key (9-14 ms). One automaton whose accepting states say
/// which part a name is in keeps one NFA state per position.
public struct LabelledProduct: Sendable {
    /// The product; `automaton.accepting[s]` exactly when `labels[s]` is not nil.
    public let automaton: ByteDFA
    public let labels: [Int?]

    /// Runs `components` side by side from their start states. A tuple whose first component is dead
    /// is dropped (the first is the alphabet: e.g. valid string content). `label(accepts)` maps which
    /// components accept to a label, or nil where the product must not accept. States that cannot reach
    /// an accepting one are removed; the rest are numbered breadth-first from the start (state 0).
    public init(_ components: [ByteDFA], limits: AutomatonLimits = .default, label: ([Bool]) -> Int?) throws(AutomatonError) {
        precondition(!components.isEmpty, "a product of no automata")
        // Byte classes: the distinct tuples of component classes.
        var classKey: [[UInt8]: Int] = [:]
        var classOf = [UInt8](repeating: 0, count: 256)
        var classTuples: [[Int]] = []
        for b in 0..<256 {
            let key = components.map { $0.classOf[b] }
            if let c = classKey[key] { classOf[b] = UInt8(c); continue }
            classKey[key] = classTuples.count
            classOf[b] = UInt8(classTuples.count)
            classTuples.append(key.map(Int.init))
        }
        let classCount = classTuples.count
        var tuples = StateSetTable()
        var table: [Int32] = []
        var labels: [Int?] = []
        func add(_ t: [Int32]) throws(AutomatonError) -> Int32 {
            let (known, hash) = t.withUnsafeBufferPointer { b in
                let h = StateSetTable.hash(b)
                return (tuples.find(b, hash: h), h)
            }
            if let known { return known }
            guard tuples.count < limits.maxDFAStates else { throw .tooManyStates(limit: limits.maxDFAStates) }
            labels.append(label(t.enumerated().map { $1 >= 0 && components[$0].accepting[Int($1)] }))
            table.append(contentsOf: repeatElement(-1, count: classCount))
            return t.withUnsafeBufferPointer { tuples.insert($0, hash: hash) }
        }
        _ = try add([Int32](repeating: 0, count: components.count))
        // The components' tables and class counts read directly (a `ByteDFA` taken out of the array is
        // three retains and releases), and one scratch tuple for every move: a tuple is copied only
        // when it is a new state (`add` keeps it). Per state and class this loop made an array and
        // copied each component before, most of a large `patternProperties` lowering.
        let m = components.count
        let componentTables = components.map(\.table), componentClasses = components.map(\.classCount)
        var to = [Int32](repeating: -1, count: m)
        var from = [Int32](repeating: -1, count: m)
        var i = 0
        while i < tuples.count {
            // Copied out: the table grows below, and a slice of it held meanwhile would copy it whole.
            from.removeAll(keepingCapacity: true)
            from.append(contentsOf: tuples.list(i))
            // Every state kept has a live first component (tuples whose first is dead are dropped).
            let firstRow = Int(from[0]) * componentClasses[0]
            for c in 0..<classCount {
                let classes = classTuples[c]
                let first = componentTables[0][firstRow + classes[0]]
                if first < 0 { continue }
                to[0] = first
                for k in 1..<m {
                    to[k] = from[k] >= 0 ? componentTables[k][Int(from[k]) * componentClasses[k] + classes[k]] : -1
                }
                table[i * classCount + c] = try add(to)
            }
            i += 1
        }
        (automaton, self.labels) = Self.trimmed(classOf: classOf, classCount: classCount, table: table, labels: labels)
    }

    init(automaton: ByteDFA, labels: [Int?]) {
        self.automaton = automaton
        self.labels = labels
    }

    /// The automaton of `table` (start state 0) keeping only the states that reach an accepting one
    /// (a state with a label), renumbered breadth-first from the start.
    static func trimmed(classOf: [UInt8], classCount: Int, table: [Int32], labels: [Int?]) -> (ByteDFA, [Int?]) {
        let n = labels.count
        var reverse = [[Int32]](repeating: [], count: n)
        for s in 0..<n { for c in 0..<classCount where table[s * classCount + c] >= 0 { reverse[Int(table[s * classCount + c])].append(Int32(s)) } }
        var useful = labels.map { $0 != nil }
        var work = (0..<n).filter { useful[$0] }
        while let s = work.popLast() { for p in reverse[s] where !useful[Int(p)] { useful[Int(p)] = true; work.append(Int(p)) } }
        guard useful[0] else { return (.emptyLanguage, [nil]) }
        var newID = [Int32](repeating: -1, count: n)
        var order = [0]
        newID[0] = 0
        var head = 0
        while head < order.count {
            let s = order[head]; head += 1
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                if t >= 0 && useful[t] && newID[t] < 0 { newID[t] = Int32(order.count); order.append(t) }
            }
        }
        var newTable = [Int32](repeating: -1, count: order.count * classCount)
        for (k, s) in order.enumerated() {
            for c in 0..<classCount {
                let t = Int(table[s * classCount + c])
                if t >= 0 && useful[t] { newTable[k * classCount + c] = newID[t] }
            }
        }
        let newLabels = order.map { labels[$0] }
        return (ByteDFA(classOf: classOf, classCount: classCount, table: newTable, accepting: newLabels.map { $0 != nil }), newLabels)
    }
}
