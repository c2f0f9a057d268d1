import GuidedGrammar

/// The partition of the 256 byte values into classes no grammar byte set distinguishes, so automaton
/// rows have one column per class instead of 256 (JSON: about 20 classes).
struct ByteClasses {
    /// Class of each byte value.
    var classOf: [UInt8]
    /// Number of classes.
    var count: Int
    /// One byte of each class.
    var representative: [UInt8]

    init(grammar: Grammar) {
        var sets = Set<ByteSet>()
        for rule in grammar.rules { Self.collect(rule.body, into: &sets) }
        var cls = [Int](repeating: 0, count: 256)
        var count = 1
        for s in sets {
            var map: [Int: Int] = [:]
            var next = 0
            for b in 0..<256 {
                let key = cls[b] * 2 + (s.contains(UInt8(b)) ? 1 : 0)
                if let c = map[key] { cls[b] = c } else { map[key] = next; cls[b] = next; next += 1 }
            }
            count = next
            if count == 256 { break }
        }
        classOf = cls.map { UInt8($0) }
        self.count = count
        var rep = [UInt8](repeating: 0, count: count)
        var seen = [Bool](repeating: false, count: count)
        for b in 0..<256 where !seen[cls[b]] { seen[cls[b]] = true; rep[cls[b]] = UInt8(b) }
        representative = rep
    }

    private static func collect(_ e: GrammarExpr, into sets: inout Set<ByteSet>) {
        switch e {
        case .empty, .nothing, .rule: break
        case .bytes(let bs): for b in bs { sets.insert(ByteSet([b])) }
        case .byteSet(let s): sets.insert(s)
        case .sequence(let parts), .choice(let parts): for p in parts { collect(p, into: &sets) }
        case .repeat(let inner, _, _): collect(inner, into: &sets)
        }
    }
}
