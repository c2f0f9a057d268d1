extension ByteDFA {
    /// The minimal automaton of a finite set of byte strings: the same automaton as
    /// `ByteDFA(.alt(words.map { .bytes($0) }))`, built from their trie instead of an NFA.
    ///
    /// An object's declared names, a `not: {enum}` of strings: lists of hundreds of literals, for which
    /// the expression route hashed every alternative to drop duplicates and ran a subset construction
    /// whose states are exactly the trie's nodes (a third of a large schema's lowering). Classes are
    /// numbered as `ByteNFA.byteClasses` numbers single-byte edges (each used byte, and the unused ones
    /// together, in the order of their first byte), so `minimized()` returns the identical automaton.
    /// - Throws: `tooManyStates` past `limits.maxDFAStates` trie nodes, `tooManyNFAStates` past
    ///   `limits.maxNFAStates` bytes in all.
    public static func literals(_ words: [[UInt8]], limits: AutomatonLimits = .default) throws(AutomatonError) -> ByteDFA {
        if words.isEmpty { return .emptyLanguage }
        var total = 0
        var used = [Bool](repeating: false, count: 256)
        for w in words {
            total += w.count
            for b in w { used[Int(b)] = true }
        }
        guard total <= limits.maxNFAStates else { throw .tooManyNFAStates(limit: limits.maxNFAStates) }
        // One class per used byte and one for all the others, numbered by their first byte in value order.
        var classOf = [UInt8](repeating: 0, count: 256)
        var classCount = 0
        var unusedClass = -1
        for b in 0..<256 {
            if used[b] {
                classOf[b] = UInt8(classCount); classCount += 1
            } else {
                if unusedClass < 0 { unusedClass = classCount; classCount += 1 }
                classOf[b] = UInt8(unusedClass)
            }
        }
        var table = [Int32](repeating: -1, count: classCount)
        var accepting = [false]
        for w in words {
            var s = 0
            for b in w {
                let cell = s * classCount + Int(classOf[Int(b)])
                if table[cell] < 0 {
                    guard accepting.count < limits.maxDFAStates else { throw .tooManyStates(limit: limits.maxDFAStates) }
                    table[cell] = Int32(accepting.count)
                    accepting.append(false)
                    table.append(contentsOf: repeatElement(-1, count: classCount))
                }
                s = Int(table[cell])
            }
            accepting[s] = true
        }
        return ByteDFA(classOf: classOf, classCount: classCount, table: table, accepting: accepting).minimized()
    }
}
