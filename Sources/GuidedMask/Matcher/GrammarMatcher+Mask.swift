extension GrammarMatcher {
    /// Words a mask buffer needs: `(vocabulary.size + 31) / 32`.
    public var maskWordCount: Int { compiled.vocabulary.maskWords }

    /// Writes the allowed next tokens into `buffer`: bit `i % 32` of word `i / 32` is set when token `i`
    /// may come next (the llguidance / XGrammar layout). EOS tokens are set exactly when the grammar can
    /// end here; other special tokens and padding ids never. After termination only EOS is set.
    /// - Throws: `maskBufferTooSmall`, or a sticky error.
    public mutating func fillNextTokenMask(into buffer: UnsafeMutableBufferPointer<UInt32>) throws(MatcherError) {
        if let failure { throw .failed(failure) }
        let words = compiled.vocabulary.maskWords
        guard buffer.count >= words, let mask = buffer.baseAddress else {
            throw .maskBufferTooSmall(words: buffer.count, needed: words)
        }
        let cp = current
        var initialized = false
        if !cp.terminated {
            var i = Int(cp.setStart)
            while i < Int(cp.setEnd) {
                let node = engine.nodes[Int(sets[i])]
                try maskFromStack(node, mask: mask, words: words, initialized: &initialized)
                i += 1
            }
            engine.truncate(nodes: Int(cp.nodeCount), items: 0)
            if engine.overflow {
                engine.overflow = false
                try fail(.tooManyStacks(limit: compiled.limits.maxStacks))
            }
            let dups = compiled.vocabulary.duplicatePairs
            var k = 0
            while k < dups.count {
                let p = dups[k], d = dups[k + 1]
                if mask[Int(p >> 5)] & (1 << (p & 31)) != 0 { mask[Int(d >> 5)] |= 1 << (d & 31) }
                k += 2
            }
        }
        if isExhausted { try fail(.automatonTooLarge(limit: compiled.limits.maxAutomatonStates)) }
        if !initialized { mask.update(repeating: 0, count: words) }
        if !cp.terminated && !compiled.symbols.isEmpty { applySymbols(cp, mask: mask) }
        for e in compiled.vocabulary.maskEOS {
            if cp.canEnd || cp.terminated { mask[e >> 5] |= 1 << UInt32(e & 31) } else { mask[e >> 5] &= ~(1 << UInt32(e & 31)) }
        }
        if tracksDistinct && !cp.terminated { try refuseRepeatedItems(mask) }
        if tracksCounted && !cp.terminated { try refuseOutOfBounds(mask) }
    }

    /// Token terminals and excluded tokens (`TokenSymbols`): the walk read every token as text, so the
    /// excluded ones (terminals among them) are cleared, then each terminal is set when some stack can
    /// read its symbol class. Every stack in a configuration can still complete, so a stack that reads
    /// the class is a parse that goes on: the bit is exact. A few table lookups per stack.
    private func applySymbols(_ cp: Checkpoint, mask: UnsafeMutablePointer<UInt32>) {
        let symbols = compiled.symbols, t = compiled.tables
        for e in symbols.excluded { mask[Int(e >> 5)] &= ~(1 << UInt32(e & 31)) }
        for (k, token) in symbols.terminals.enumerated() {
            let cls = symbols.firstClass + k
            var i = Int(cp.setStart)
            while i < Int(cp.setEnd) {
                if t.target(engine.nodes[Int(sets[i])].state, cls) >= 0 {
                    mask[Int(token >> 5)] |= 1 << UInt32(token & 31)
                    break
                }
                i += 1
            }
        }
    }

    /// Convenience: fills `mask` (resized to `maskWordCount` words).
    public mutating func fillNextTokenMask(into mask: inout [UInt32]) throws(MatcherError) {
        if mask.count != maskWordCount { mask = [UInt32](repeating: 0, count: maskWordCount) }
        var result: Result<Void, MatcherError> = .success(())
        mask.withUnsafeMutableBufferPointer { buffer in
            do throws(MatcherError) { try fillNextTokenMask(into: buffer) } catch { result = .failure(error) }
        }
        try result.get()
    }

    /// Adds one stack's allowed tokens: its state's cached always-allowed tokens plus its uncertain
    /// tokens checked against the real stack, or a full trie walk for dense states.
    /// The first stack copies its state's bitmask instead of zeroing and OR-ing (`initialized`).
    private mutating func maskFromStack(_ node: StackNode, mask: UnsafeMutablePointer<UInt32>, words: Int,
                                        initialized: inout Bool) throws(MatcherError) {
        let entry = try cacheEntry(for: node.state, atBottom: node.parent == StackEngine.bottom)
        // Unretained: the grammar's cache holds the entry, and a retain here would write the entry's
        // reference count, shared by every thread masking this state.
        entry._withUnsafeGuaranteedRef { e in maskFromEntry(e, node, mask: mask, words: words, initialized: &initialized) }
    }

    private mutating func maskFromEntry(_ entry: MaskCacheEntry, _ node: StackNode, mask: UnsafeMutablePointer<UInt32>, words: Int,
                                        initialized: inout Bool) {
        if !initialized {
            initialized = true
            if let members = entry.sliceMembers {
                mask.update(from: members, count: words)
                for tok in entry.acceptedList { mask[Int(tok >> 5)] |= 1 << (tok & 31) }
                if !entry.uncertain.isEmpty {
                    walkTokens(entry.uncertain, state: node.state, base: node.parent, mask: mask)
                }
                if entry.hasSuffixes { walkSuffixes(entry.suffixes, below: node.parent, mask: mask) }
                if entry.hasSharedTails { walkSuffixes(entry.sharedTails, below: node.parent, mask: mask) }
                return
            }
            if !entry.acceptedWords.isEmpty {
                mask.update(from: entry.acceptedWords.baseAddress!, count: words)
                if !entry.uncertain.isEmpty {
                    walkTokens(entry.uncertain, state: node.state, base: node.parent, mask: mask)
                }
                if entry.hasSuffixes { walkSuffixes(entry.suffixes, below: node.parent, mask: mask) }
                if entry.hasSharedTails { walkSuffixes(entry.sharedTails, below: node.parent, mask: mask) }
                return
            }
            mask.update(repeating: 0, count: words)
        }
        if entry.isDense {
            var none: [UInt32] = [], noSuffixes: [UInt64] = []
            _ = walkTrie(state: node.state, base: node.parent, mask: mask, uncertain: &none, suffixes: &noSuffixes, maxUncertain: 0)
            return
        }
        if let w = entry.sliceMembers {
            var i = 0
            while i < words { mask[i] |= w[i]; i += 1 }
            for tok in entry.acceptedList { mask[Int(tok >> 5)] |= 1 << (tok & 31) }
        } else if !entry.acceptedWords.isEmpty {
            let w = entry.acceptedWords
            var i = 0
            while i < w.count { mask[i] |= w[i]; i += 1 }
        } else {
            for tok in entry.acceptedList { mask[Int(tok >> 5)] |= 1 << (tok & 31) }
        }
        if !entry.uncertain.isEmpty {
            walkTokens(entry.uncertain, state: node.state, base: node.parent, mask: mask)
        }
        if entry.hasSuffixes { walkSuffixes(entry.suffixes, below: node.parent, mask: mask) }
        if entry.hasSharedTails { walkSuffixes(entry.sharedTails, below: node.parent, mask: mask) }
    }
}
