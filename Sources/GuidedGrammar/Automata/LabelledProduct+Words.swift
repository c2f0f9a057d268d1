extension LabelledProduct {
    /// Listed words over a tail automaton, as one labelled automaton: a word ends with its own label
    /// (`wordLabels[i]`; nil: not accepted there), and every other string is read by `tail` from its
    /// start and ends with the label `tail` gives it. What `LabelledProduct([tail, words…])` would be,
    /// built directly: the trie's nodes each know the tail's state after their prefix, so no tuple of
    /// states is hashed per transition (the product of a hundred objects' member names with a pattern
    /// was most of a large schema's compile time).
    ///
    /// `words` must be distinct; a word the tail does not read is dropped (bytes outside the tail's
    /// language can begin no string).
    public init(words: [[UInt8]], wordLabels: [Int?], tail: LabelledProduct) {
        let t = tail.automaton
        // Classes: the tail's, with each byte that some word has in a class of its own.
        var inWords = [Bool](repeating: false, count: 256)
        for w in words { for b in w { inWords[Int(b)] = true } }
        var classKey: [Int: Int] = [:]
        var classOf = [UInt8](repeating: 0, count: 256)
        var representative: [Int] = []
        for b in 0..<256 {
            let key = inWords[b] ? 256 + b : Int(t.classOf[b])
            if let c = classKey[key] { classOf[b] = UInt8(c); continue }
            classKey[key] = representative.count
            classOf[b] = UInt8(representative.count)
            representative.append(b)
        }
        let classCount = representative.count
        // The trie: node 0 is the root; per node its children by byte, its tail state, and its word.
        var children: [[UInt8: Int32]] = [[:]]
        var tailState: [Int32] = [0]
        var word: [Int?] = [nil]
        for (i, w) in words.enumerated() {
            var v = 0
            var live = true
            for b in w {
                if let c = children[v][b] { v = Int(c); continue }
                let next = tailState[v] >= 0 ? t.next(tailState[v], b) : -1
                if next < 0 { live = false; break }
                children[v][b] = Int32(children.count)
                children.append([:])
                tailState.append(next)
                word.append(nil)
                v = children.count - 1
            }
            if live { word[v] = i }
        }
        let m = children.count
        var table = [Int32](repeating: -1, count: (m + t.stateCount) * classCount)
        var labels: [Int?] = []
        labels.reserveCapacity(m + t.stateCount)
        for v in 0..<m {
            let ts = Int(tailState[v])
            for c in 0..<classCount {
                let b = representative[c]
                if inWords[b], let child = children[v][UInt8(b)] {
                    table[v * classCount + c] = child
                } else {
                    let next = t.table[ts * t.classCount + Int(t.classOf[b])]
                    if next >= 0 { table[v * classCount + c] = Int32(m) + next }
                }
            }
            if let i = word[v] { labels.append(wordLabels[i]) } else { labels.append(tail.labels[ts]) }
        }
        for s in 0..<t.stateCount {
            for c in 0..<classCount {
                let next = t.table[s * t.classCount + Int(t.classOf[representative[c]])]
                if next >= 0 { table[(m + s) * classCount + c] = Int32(m) + next }
            }
            labels.append(tail.labels[s])
        }
        let (automaton, trimmedLabels) = Self.trimmed(classOf: classOf, classCount: classCount, table: table, labels: labels)
        self.init(automaton: automaton, labels: trimmedLabels)
    }
}
