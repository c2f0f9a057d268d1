/// How a state's mask-cache entry is made, in three steps that a batch can spread over threads
/// (`FirstVisitJob`): the plan (the tokens known before any walk, the tries to walk), the walk of the
/// tries, or of parts of them (`TriePart`), and the entry made from what the walks found.

/// What a state's entry starts from, before its trie walk.
struct EntryPlan {
    let key: Int32
    let state: Int32
    let atBottom: Bool
    /// Tokens accepted before the walk (a class's members, or none), and the walks add theirs. A slice's
    /// members are not copied in: its entry keeps the tokens the walks add beyond them.
    var accepted: [UInt32]
    /// The tries to walk, in order: the vocabulary's (nil) or a slice's rest, then a gap slice's own.
    let views: [TrieView?]
    let slice: TokenSlice?
    /// The rule returns after exactly this many more characters (an exact-room slice).
    let returnsAfter: Int?
    let classSkip: ClassSkip?
    let followRule: Int
}

/// What walking a plan's tries, or some parts of them, found: in trie order.
struct EntryWalk {
    var uncertain: [UInt32] = []
    var suffixPairs: [UInt64] = []
    /// Both lists within their limits.
    var ok = true
    /// A closure passed the stack limit: the entry is dense.
    var overflow = false
}

extension GrammarMatcher {
    /// The cached entry for `state`, building it with a trie walk over an unknown stack if needed.
    /// A stack of one frame (`atBottom`) has nothing below it: its walk is exact and has no uncertain
    /// tokens, so it is cached separately (the start rule's states, e.g. trailing whitespace).
    mutating func cacheEntry(for state: Int32, atBottom: Bool) throws(MatcherError) -> Unmanaged<MaskCacheEntry> {
        if let e = compiled.cachedEntry(Self.entryKey(state, atBottom)) { return e }
        return buildEntry(entryPlan(state: state, atBottom: atBottom))
    }

    @inline(__always)
    static func entryKey(_ state: Int32, _ atBottom: Bool) -> Int32 { state &* 2 &+ (atBottom ? 1 : 0) }

    /// Walks every trie of `plan` on this thread and stores the entry. Where the plan starts from zeros
    /// (no class members copied in), the walk also marks the mask words it sets a token in, and the entry
    /// lists its tokens from those words: scanning all 4,750 words of a mostly empty bitmask was a
    /// twelfth of all mask time on maskbench-dev.
    mutating func buildEntry(_ plan: consuming EntryPlan) -> Unmanaged<MaskCacheEntry> {
        var plan = plan
        let summaryWords = (compiled.vocabulary.maskWords + 63) / 64
        // Moved out, so that the walk (a mutating method) can write it through a pointer.
        var touched = walk.touched
        walk.touched = []
        defer { walk.touched = touched }
        if touched.count < summaryWords { touched = [UInt64](repeating: 0, count: summaryWords) }
        return touched.withUnsafeMutableBufferPointer { buffer in
            let summary = plan.classSkip == nil ? buffer.baseAddress! : nil
            summary?.update(repeating: 0, count: summaryWords)
            let found = walkEntry(&plan, touched: summary)
            return compiled.store(compiled.makeEntry(plan, found, touched: summary.map { UnsafePointer($0) }), for: plan.key)
        }
    }

    /// Walks every trie of `plan` on this thread, setting the bits of the tokens it accepts in
    /// `plan.accepted` (and, with `touched`, the bits of their words there).
    mutating func walkEntry(_ plan: inout EntryPlan, touched: UnsafeMutablePointer<UInt64>? = nil) -> EntryWalk {
        // Moved out, so that the walk writes the plan's only copy of the bitmask.
        var accepted = plan.accepted
        plan.accepted = []
        var found = EntryWalk()
        accepted.withUnsafeMutableBufferPointer { buffer in
            for v in plan.views.indices where found.ok {
                walkEntryPart(plan, TriePart(view: v, lower: 0, upper: plan.trie(v, compiled.tables).count), mask: buffer.baseAddress!,
                              into: &found, touched: touched)
            }
        }
        plan.accepted = accepted
        return found
    }

    /// The plan of `state`'s entry.
    mutating func entryPlan(state: Int32, atBottom: Bool) -> EntryPlan {
        let words = compiled.vocabulary.maskWords
        var accepted = [UInt32](repeating: 0, count: words)
        // Inside JSON string text most tokens are allowed: take a precomputed slice of them when the
        // state provably accepts all of it, and walk only the trie of the other tokens.
        var view: TrieView? = nil
        var base: TokenSlice? = nil
        var returnsAfter: Int? = nil
        var classSkip: ClassSkip? = nil
        if let (slice, returns) = chooseSlice(state: state) {
            base = slice
            returnsAfter = returns
            view = TrieView(nodes: slice.restNodes.baseAddress!, count: slice.rest.nodes.count, maxDepth: max(1, slice.rest.maxDepth))
            // Inside JSON string text no control byte can follow: the tokens that reach one after plain
            // text (two thirds of the rest trie's nodes in Qwen2) die there, so they are not walked.
            if let text = slice.textRest,
               compiled.automaton.controlBytesDeadAfterPlainText(state, sliceEdges: compiled.sliceEdges) {
                view = TrieView(nodes: text.nodes.baseAddress!, count: text.trie.nodes.count, maxDepth: max(1, text.trie.maxDepth))
            }
        }
        // No slice: a state looping over a class of ASCII characters (a hostname, an email's local part)
        // takes that class's tokens at once, and the walk skips the subtrees made of them.
        if base == nil, let (skip, members, narrowerMembers) = classSlice(state: state) {
            accepted = Array(UnsafeBufferPointer(start: members, count: words))
            if let more = narrowerMembers {
                accepted.withUnsafeMutableBufferPointer { a in for w in 0..<words { a[w] |= more[w] } }
            }
            classSkip = skip
        }
        var views = [view]
        // A gap slice leaves out the plain tokens holding an excluded character: they have a trie of their own.
        if let g = base?.gap, let nodes = base?.gapNodes { views.append(TrieView(nodes: nodes.baseAddress!, count: g.nodes.count, maxDepth: max(1, g.maxDepth))) }
        return EntryPlan(key: Self.entryKey(state, atBottom), state: state, atBottom: atBottom, accepted: accepted, views: views,
                         slice: base, returnsAfter: returnsAfter, classSkip: classSkip,
                         followRule: atBottom ? -1 : compiled.automaton.ruleIndex(of: state) ?? -1)
    }

    /// Walks one part of one of `plan`'s tries, setting the bits of the tokens it accepts in `mask` and
    /// appending the rest of what it finds to `found`. Parts walked in trie order into one `found` find
    /// what the whole trie's walk finds.
    mutating func walkEntryPart(_ plan: EntryPlan, _ part: TriePart, mask: UnsafeMutablePointer<UInt32>, into found: inout EntryWalk,
                                touched: UnsafeMutablePointer<UInt64>? = nil) {
        let nodeMark = engine.nodes.count, itemMark = engine.items.count
        let ok = walkTrie(state: plan.state, base: plan.atBottom ? StackEngine.bottom : StackEngine.hole, mask: mask,
                          uncertain: &found.uncertain, suffixes: &found.suffixPairs, maxUncertain: compiled.limits.maxUncertainTokens,
                          maxSuffixes: compiled.limits.maxSuffixTokens, trie: plan.views[part.view], followRule: plan.followRule,
                          classSkip: plan.classSkip, nodes: part.lower..<part.upper, below: part.parent, touched: touched)
        engine.truncate(nodes: nodeMark, items: itemMark)
        if engine.overflow {
            // The relative walk may meet more ambiguity than any real stack; do not cache, walk in full.
            engine.overflow = false
            found.overflow = true
        }
        if !ok { found.ok = false }
    }
}

extension EntryPlan {
    /// The nodes of trie `v`.
    func trie(_ v: Int, _ t: AutomatonTables) -> TrieView {
        views[v] ?? TrieView(nodes: t.trie, count: t.trieCount, maxDepth: t.trieMaxDepth)
    }
}

extension CompiledGrammar {
    /// The entry of `plan` from what the walks of all its tries found (`plan.accepted` holds the tokens
    /// they accepted; `touched`, when given, every word holding one).
    func makeEntry(_ plan: EntryPlan, _ found: EntryWalk, touched: UnsafePointer<UInt64>? = nil) -> MaskCacheEntry {
        if found.overflow || !found.ok { return .dense }
        var suffixPairs = found.suffixPairs
        let t = tables
        var tailCharacters: [UInt8]? = nil
        var sharedTails = SuffixGroups.empty
        if let r = plan.returnsAfter, !plan.atBottom {
            // The rule returns after exactly r more characters: every longer plain token is a tail read by
            // the caller from its (r + 1)-th character on. Listed from the character counts instead of
            // walked (the walk of ~140k such tokens was most of a block end's first mask, 6-10 ms), and,
            // where the caller may read any plain character next, taken from the vocabulary's lists
            // shared by every such state (grouping them was 1.3-2.5 ms per state).
            let rule = automaton.ruleIndex(of: plan.state) ?? -1
            if rule < 0 || followsAllPlainText(rule) {
                sharedTails = vocabulary.plainTails(after: r)
                if suffixPairs.count + sharedTails.pairCount > limits.maxSuffixTokens { return .dense }
            } else {
                let tails = vocabulary.plainTailPairs(after: r) { t.automaton.follow.follows(rule, Int(t.classOf[Int($0)])) }
                tailCharacters = [UInt8](repeating: 0, count: suffixPairs.count) + tails.characters
                suffixPairs += tails.pairs
                if suffixPairs.count > limits.maxSuffixTokens { return .dense }
            }
        }
        let suffixes = suffixPairs.isEmpty ? SuffixGroups.empty : SuffixGroups(pairs: suffixPairs, bytes: t.tokenBytes, offsets: t.tokenOffsets, tailCharacters: tailCharacters)
        if let base = plan.slice {
            return MaskCacheEntry(slice: base, walked: plan.accepted, touched: touched, uncertain: found.uncertain, suffixes: suffixes,
                                  sharedTails: sharedTails)
        }
        return MaskCacheEntry(acceptedWords: plan.accepted, touched: touched, uncertain: found.uncertain, suffixes: suffixes,
                              sharedTails: sharedTails)
    }
}
