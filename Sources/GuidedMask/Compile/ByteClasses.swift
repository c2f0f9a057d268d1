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
        var table = ByteSetTable()
        var sets: [ByteSet] = []
        var singles = [Bool](repeating: false, count: 256)
        for rule in grammar.rules { Self.collect(rule.body, into: &sets, seen: &table, singles: &singles) }
        // Single bytes (literals) are the common case: split them off first, one class each.
        var cls = [Int](repeating: 0, count: 256)
        var count = 1
        for b in 0..<256 where singles[b] { cls[b] = count; count += 1 }
        // (Bytes that are in no literal share class 0 until a set splits them.)
        // Refine by each set: (old class, member?) -> new class, with arrays instead of hashing.
        var split = [Int](repeating: -1, count: 2 * 257)
        for s in sets where count < 256 {
            for i in 0..<(2 * count) { split[i] = -1 }
            var next = 0
            for b in 0..<256 {
                let key = cls[b] * 2 + (s.contains(UInt8(b)) ? 1 : 0)
                if split[key] < 0 { split[key] = next; next += 1 }
                cls[b] = split[key]
            }
            count = next
        }
        // Renumber in byte order so classes do not depend on set iteration order.
        var renumber = [Int](repeating: -1, count: 257)   // ids reach 256 when all bytes are literals
        var n = 0
        for b in 0..<256 where renumber[cls[b]] < 0 { renumber[cls[b]] = n; n += 1 }
        classOf = cls.map { UInt8(renumber[$0]) }
        self.count = n
        var rep = [UInt8](repeating: 0, count: n)
        var seen = [Bool](repeating: false, count: n)
        for b in 0..<256 where !seen[Int(classOf[b])] { seen[Int(classOf[b])] = true; rep[Int(classOf[b])] = UInt8(b) }
        representative = rep
    }

    /// Distinct byte sets in first-seen order (deduplicated through `seen`, cheaper than a `Set`).
    private static func collect(_ e: GrammarExpr, into sets: inout [ByteSet], seen: inout ByteSetTable, singles: inout [Bool]) {
        switch e {
        case .empty, .nothing, .rule: break
        case .bytes(let bs): for b in bs { singles[Int(b)] = true }
        case .byteSet(let s):
            if seen.value(for: s) == nil { seen.insert(s, (0, 0)); sets.append(s) }
        case .sequence(let parts), .choice(let parts): for p in parts { collect(p, into: &sets, seen: &seen, singles: &singles) }
        case .repeat(let inner, _, _): collect(inner, into: &sets, seen: &seen, singles: &singles)
        }
    }
}
