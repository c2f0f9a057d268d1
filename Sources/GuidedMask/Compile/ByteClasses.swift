import GuidedGrammar

/// The partition of the 256 byte values into classes no grammar byte set distinguishes, so automaton
/// rows have one column per class instead of 256 (JSON: about 20 classes).
///
/// After the byte classes come the *symbol classes*, which no byte belongs to: one per token the
/// grammar names (`GrammarExpr.token`, resolved to ids), read when the matcher accepts that token, then
/// one per distinct token budget (`GrammarExpr.tokenBudget`), read when a budget runs out (the cut).
/// A trie walk reads bytes only, so it never takes a symbol edge.
struct ByteClasses {
    /// Class of each byte value.
    var classOf: [UInt8]
    /// Number of classes, symbol classes included.
    var count: Int
    /// Number of byte classes (`0 ..< byteCount`); symbol classes follow.
    var byteCount: Int
    /// One byte of each byte class.
    var representative: [UInt8]
    /// Token terminals, in increasing id order: token `tokens[k]` is class `byteCount + k`.
    var tokens: [Int] = []
    /// Distinct token budgets, in increasing order: budget `budgets[k]` is class `byteCount + tokens.count + k`.
    var budgets: [Int] = []

    /// What a grammar's expressions tell apart, gathered by a walk made for something else: `RuleSelection`
    /// fills it on its own walk of every rule (a walk of the whole grammar for the classes alone, mostly
    /// reference counting on the expression tree, was a tenth of building a large schema's automaton).
    struct Terminals {
        /// Distinct byte sets in first-seen order (deduplicated through `seen`, cheaper than a `Set`).
        fileprivate var sets: [ByteSet] = []
        fileprivate var seen = ByteSetTable()
        fileprivate var singles = [Bool](repeating: false, count: 256)
        fileprivate var tokens = Set<Int>()
        fileprivate var budgets = Set<Int>()

        mutating func add(bytes: [UInt8]) { for b in bytes { singles[Int(b)] = true } }
        mutating func add(set: ByteSet) {
            if seen.value(for: set) == nil { seen.insert(set, (0, 0)); sets.append(set) }
        }
        mutating func add(token: TokenReference) { if let id = token.resolvedID { tokens.insert(id) } }
        mutating func add(budget maxTokens: Int) { budgets.insert(maxTokens) }
    }

    init(terminals: Terminals) {
        let sets = terminals.sets, singles = terminals.singles
        let tokenSet = terminals.tokens, budgetSet = terminals.budgets
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
        byteCount = n
        tokens = tokenSet.sorted()
        budgets = budgetSet.sorted()
        self.count = n + tokens.count + budgets.count
        var rep = [UInt8](repeating: 0, count: n)
        var seen = [Bool](repeating: false, count: n)
        for b in 0..<256 where !seen[Int(classOf[b])] { seen[Int(classOf[b])] = true; rep[Int(classOf[b])] = UInt8(b) }
        representative = rep
    }

    /// The class of token terminal `id` (nil: the grammar does not name it).
    func tokenClass(_ id: Int) -> Int? {
        guard let k = tokens.firstIndex(of: id) else { return nil }
        return byteCount + k
    }

    /// The cut class of a budget of `maxTokens`.
    func budgetClass(_ maxTokens: Int) -> Int? {
        guard let k = budgets.firstIndex(of: maxTokens) else { return nil }
        return byteCount + tokens.count + k
    }
}
