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
        // Single bytes (literals) are the common case: each is a class of its own; the other bytes start
        // as one class. Each set then splits every class it cuts, on 256-bit sets: a few word operations
        // per (set, class) pair instead of a pass over all 256 bytes per set.
        var blocks: [ByteSet] = []
        var rest = ByteSet.all
        for b in 0..<256 where singles[b] { blocks.append(ByteSet([UInt8(b)])); rest.remove(UInt8(b)) }
        if !rest.isEmpty { blocks.append(rest) }
        for s in sets where blocks.count < 256 {
            let outside = s.complement()
            for i in 0..<blocks.count {
                let inside = blocks[i].intersection(s)
                if inside.isEmpty || inside == blocks[i] { continue }
                blocks.append(blocks[i].intersection(outside))
                blocks[i] = inside
            }
        }
        var cls = [Int](repeating: 0, count: 256)
        for (k, block) in blocks.enumerated() {
            for w in 0..<4 {
                var bits = block.word(w)
                while bits != 0 {
                    cls[w * 64 + bits.trailingZeroBitCount] = k
                    bits &= bits - 1
                }
            }
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
