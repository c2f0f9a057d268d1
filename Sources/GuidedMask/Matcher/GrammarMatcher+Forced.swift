extension GrammarMatcher {
    /// The bytes the grammar forces next: while the grammar cannot end and exactly one byte value can
    /// follow, that byte is forced. Stops after `limit` bytes. Does not change the matcher.
    public func forcedBytes(limit: Int = 256) -> [UInt8] {
        if failure != nil || current.terminated { return [] }
        var probe = self
        var out: [UInt8] = []
        let t = compiled.tables
        while out.count < limit {
            let cp = probe.current
            if cp.canEnd { break }
            var only: Int = -1
            var many = false
            var i = Int(cp.setStart)
            scan: while i < Int(cp.setEnd) {
                let q = Int(probe.engine.nodes[Int(probe.sets[i])].state)
                // A token terminal the grammar can read next is a choice of the model: nothing is forced.
                let terminals = compiled.symbols.terminals.count
                for k in 0..<terminals where t.target(Int32(q), compiled.symbols.firstClass + k) >= 0 { many = true; break scan }
                for cls in 0..<compiled.automaton.byteClassCount where t.target(Int32(q), cls) >= 0 {
                    let bytes = compiled.classBytes[cls]
                    if bytes.count > 1 || (only >= 0 && only != Int(bytes[0])) { many = true; break scan }
                    only = Int(bytes[0])
                }
                i += 1
            }
            if many || only < 0 { break }
            do throws(MatcherError) { try probe.accept(bytes: [UInt8(only)]) } catch { break }
            out.append(UInt8(only))
        }
        return out
    }

    /// Tokens that spell a prefix of `forcedBytes()` and that a tokenizer would produce whatever comes
    /// after (jump-forward decoding): at each position the longest token that matches, provided no token
    /// continues past the forced bytes from that position (then the tokenization depends on the model's
    /// next choice, and the rest is left to sampling). This is the greedy longest-match tokenization,
    /// which is the canonical one for the punctuation runs grammars force (`": "`, `"}, {"`); callers
    /// with a real tokenizer may re-encode `forcedBytes()` instead.
    public func forcedTokens(limit: Int = 256) -> [Int] {
        let forced = forcedBytes(limit: limit)
        let trie = compiled.tables.trie, count = compiled.tables.trieCount
        var out: [Int] = []
        var p = 0
        while p < forced.count {
            // Walk the trie along forced[p...].
            var i = 0, end = count, depth = 0
            var best = -1, bestLength = 0
            var reachedEnd = false
            while p + depth < forced.count {
                let b = forced[p + depth]
                var found = -1
                while i < end {
                    let n = trie[i]
                    if n.byte == b { found = i; break }
                    i += n.subtreeSize
                }
                if found < 0 { break }
                let n = trie[found]
                depth += 1
                if n.hasToken { best = Int(n.token); bestLength = depth }
                if p + depth == forced.count { reachedEnd = n.subtreeSize > 1 }
                i = found + 1
                end = found + n.subtreeSize
            }
            if best < 0 || reachedEnd { break }
            out.append(best)
            p += bestLength
        }
        return out
    }
}
