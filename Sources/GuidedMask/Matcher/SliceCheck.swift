extension GrammarMatcher {
    /// Work the check below may do before it gives up (then the trie is walked as without a slice):
    /// transitions it looks at, and subset construction it causes (bytes of NFA-state sets of the states
    /// it makes), which on a big NFA can cost more than the walk it would save (an unanchored alternation
    /// of hundreds of words). A full walk visits ~333k trie nodes (Qwen2), so tens of thousands of steps
    /// are worth spending. Making states is bounded harder: in large schemas the ε-closures of the states
    /// a check made were most of the instructions of the slowest masks, and with 2 MiB of sets allowed
    /// the worst masks of the corpus took 100-160 ms (73-78 ms with 256 KiB). Both are for Qwen2's trie
    /// and scale with the vocabulary's (`VocabularyIndex.checkBudget`).
    static var sliceCheckSteps: Int { 150_000 }
    static var sliceCheckSetBytes: Int { 1 << 18 }

    /// The slice to use at `state`, if any. In a long `maxLength` string the unbounded check would explore
    /// the chain of character positions until its budget ran out (thousands of pairs, milliseconds), so
    /// it first gets only the few pairs an unbounded string's loop needs; then the 16-character check
    /// (cheap everywhere); then the proof on NFA states (`PlainTextProof`: a key automaton with more
    /// prefixes than the bounded budget, the `.*` of an unanchored `pattern`), which some states ask
    /// first (see `proofFirstSetSize` and `branchingProofSetSize`); the unbounded check with its full budget
    /// runs only where all of these failed (a string with under 16 characters of room, where it fails
    /// fast); the narrower bounded slices last.
    ///
    /// `returnsAfter`: with an exact-room slice of r characters, whether the rule returns right after
    /// them (the end of a `maxLength` block, whose caller reads on) instead of rejecting more text.
    mutating func chooseSlice(state: Int32) -> (slice: TokenSlice, returnsAfter: Int?)? {
        // Every slice reads every printable character of plain text from `state` but a gap slice's few
        // excluded ones: past that many rejected at once (a number, a key among declared names, the
        // punctuation between values) none applies, and the checks below would only find it out
        // dearer (a fifth of all mask time on maskbench-dev went to such failed checks).
        if rejectsPrintableText(state) > Self.maxGapCharacters { return nil }
        // Widest first: unbounded, 16, 8 (`VocabularyIndex.sliceBounds`).
        let slices = compiled.vocabulary.slices
        let unbounded = slices[0]
        // A state standing for many NFA states (an unanchored `pattern` of alternatives is a search:
        // every word restarts at every character; a key position with a trie of undeclared names) makes
        // each deterministic state it reaches costly to build, and the deterministic checks below would
        // build hundreds of them per mask (10 ms). The proof works on the NFA states themselves, and its
        // answers carry over to the next position: such a state asks the proof first.
        // With fewer NFA states, so does one where the text branches (the first key position of an
        // object that takes undeclared names); a bounded string's position does not (`textTargets`).
        // Neither does text that stays in its state but for one way out, whatever its set's size: a word
        // of counted words (`^(?:\S+\s+){0,199}\S+$`: `\S` loops, `\s` leads to the next word). There
        // the proof follows the chain of words to the bound and fails (1-9 ms at a string's first word,
        // 63 NFA states), while the deterministic checks meet the loop at once and the 16-character
        // check passes (0.3-0.7 ms); a loop that reads on past its way out (`.*x.*`) passes the first.
        let setSize = compiled.automaton.nfaSetSize(state)
        let proofWork = compiled.vocabulary.checkBudget(PlainTextProof.maxTotalWork)
        let (branches, loops) = setSize > Self.branchingProofSetSize ? textTargets(state) : (0, false)
        let loopWithExit = branches == 2 && loops
        let proofFirst = !loopWithExit && (setSize > Self.proofFirstSetSize || branches >= 2)
        func proved(pairLimit: Int? = nil) -> Bool {
            compiled.automaton.readsAllPlainText(state, sliceEdges: compiled.sliceEdges, totalWork: proofWork, pairLimit: pairLimit)
        }
        // Where the text branches two ways only, the proof may be wrong to come first: a bounded string
        // under an unanchored `pattern` branches so too (a character of the pattern or not), and there the
        // proof follows both chains of positions to their end (5,000 pairs, 1.8 ms at the start of a
        // `maxLength: 255` string) before failing. The name tries that branch two ways (one declared name
        // going on, and the escape to any other name) are small, so that question stops at
        // `branchingProofPairs`, whatever the set's size (a word's first character, in counted words,
        // leads on to the word's loop or to the next word: with the full budget the proof followed the
        // chain there instead, 4 ms); a trie of several names (three ways or more) keeps the full budget.
        if proofFirst && proved(pairLimit: branches == 2 ? Self.branchingProofPairs : nil) { return (unbounded, nil) }
        // An answer an earlier proof left costs a lookup per NFA state, where the deterministic check
        // below builds states (a name's later prefixes in an open object's key trie: 5-40 us each).
        if !proofFirst && compiled.automaton.knownToReadAllPlainText(state) { return (unbounded, nil) }
        if sliceApplies(unbounded, state: state, pairBudget: Self.sliceLoopPairs) { return (unbounded, nil) }
        if sliceApplies(slices[1], state: state) { return (slices[1], nil) }
        // (Asked once: a second question would explore up to four more of the set's states.)
        if !proofFirst && proved() { return (unbounded, nil) }
        if sliceApplies(unbounded, state: state) { return (unbounded, nil) }
        if let r = exactRoom(state: state) { return (compiled.vocabulary.exactSlices[r.room], r.returns ? r.room : nil) }
        if let narrow = slices.dropFirst(2).first(where: { sliceApplies($0, state: state) }) { return (narrow, nil) }
        return gapSlice(state: state).map { ($0, nil) }
    }

    /// How many printable ASCII characters of plain text `state` rejects as the next byte, counted up to
    /// the first class past `maxGapCharacters`. The trie walk asks the same transitions of every first
    /// byte, so this makes no state the walk would not.
    mutating func rejectsPrintableText(_ state: Int32) -> Int {
        let t = compiled.tables
        var rejected = 0
        for (cls, characters) in compiled.plainASCIIClasses where t.target(state, cls) < 0 {
            rejected += characters
            if rejected > Self.maxGapCharacters { break }
        }
        return rejected
    }

    /// How many distinct states the printable ASCII characters of plain text lead to from `state`,
    /// counted up to 3, and whether one of them is `state` itself (`loops`). Two or more: a name trie (a
    /// declared name's next character, and the escape to any other name, even where a single declared
    /// name goes on: after `track` in an object with `tracking` and undeclared names the 16-character
    /// check built ~500 states, 1.1 ms, before the proof answered at once), or a bounded string under an
    /// unanchored `pattern` (two: a pattern character or not). One: a position of a bounded string (every
    /// character to the next position), where the proof would follow the chain of positions to its end
    /// before failing there. Two with a loop: a word of counted words (see `chooseSlice`). The walk reads
    /// nearly all of these transitions anyway (the rest trie too holds tokens beginning with almost every
    /// character).
    mutating func textTargets(_ state: Int32) -> (count: Int, loops: Bool) {
        let t = compiled.tables
        var targets: (Int32, Int32) = (0, 0)
        var loops = false
        var seen = [Bool](repeating: false, count: t.classCount)
        for b in UInt8(0x20)...UInt8(0x7F) where b != 0x22 && b != 0x5C {
            let cls = Int(t.classOf[Int(b)])
            if seen[cls] { continue }
            seen[cls] = true
            let target = t.target(state, cls)
            if target == state { loops = true }
            if target < 0 || target == targets.0 || target == targets.1 { continue }
            if targets.0 == 0 { targets.0 = target } else if targets.1 == 0 { targets.1 = target } else { return (3, loops) }
        }
        return (targets.0 == 0 ? 0 : targets.1 == 0 ? 1 : 2, loops)
    }

    /// ASCII characters a gap slice may leave out, at most.
    static var maxGapCharacters: Int { 6 }

    /// A gap slice for `state`: the printable ASCII characters that lead anywhere but where most of them
    /// lead (the next position of a string) are excluded, and `state` must read every plain text without
    /// them (`sliceApplies` with those classes left out between characters). For `pattern` strings such
    /// as `-\D[^-]*(-[^-]+){1,3}`: without it every new position walked the whole trie (8-12 ms in
    /// rust-toolchain's `channel`).
    mutating func gapSlice(state: Int32) -> TokenSlice? {
        let t = compiled.tables
        // The printable ASCII characters by class (a class holding none reads only other bytes).
        var charactersOf: [Int: [UInt8]] = [:]
        for b in UInt8(0x20)...UInt8(0x7F) where b != 0x22 && b != 0x5C { charactersOf[Int(t.classOf[Int(b)]), default: []].append(b) }
        // Each single-byte class between characters with its target; how many characters go where.
        var edges: [(cls: Int, target: Int32)] = []
        var charactersByTarget: [Int32: Int] = [:]
        for (cls, u2) in compiled.sliceEdges[Int(SliceUTF8.boundary)] where u2 == SliceUTF8.boundary {
            var target = t.entry(state, cls)
            if target == 0 { target = t.automaton.materialize(state, cls) }
            edges.append((cls, target))
            charactersByTarget[target, default: 0] += charactersOf[cls]?.count ?? 0
            // Most states (keys, bounded strings' counters) go to many places: give up early.
            if charactersByTarget.count > Self.maxGapCharacters + 1 { return nil }
        }
        guard let main = charactersByTarget.max(by: { $0.value < $1.value }), main.key > 0 else { return nil }
        var excluded = ASCIISet()
        var excludedClasses = Set<Int>()
        for e in edges where e.target != main.key {
            excludedClasses.insert(e.cls)
            for b in charactersOf[e.cls] ?? [] { excluded.insert(b) }
            if excluded.count > Self.maxGapCharacters { return nil }
        }
        guard !excludedClasses.isEmpty, compiled.vocabulary.gapMayFit(excluding: excluded) else { return nil }
        // Unbounded text (the few pairs of a loop), else 16 characters of it (a `maxLength` beside the
        // `pattern`, whose chain of positions the unbounded check would explore up to its budget).
        if sliceApplies(compiled.vocabulary.slices[0], state: state, pairBudget: Self.sliceLoopPairs, excludingAtBoundary: excludedClasses) {
            return compiled.vocabulary.gapSlice(excluding: excluded)
        }
        let bounded = compiled.vocabulary.slices[1]
        guard sliceApplies(bounded, state: state, excludingAtBoundary: excludedClasses) else { return nil }
        return compiled.vocabulary.gapSlice(excluding: excluded, maxCharacters: bounded.maxCharacters)
    }

    /// The room r (1 ..< `VocabularyIndex.exactSliceBound` characters) of a position in a bounded string,
    /// when it is exact both ways: by byte transitions alone, `state` reads every plain-text string of
    /// up to r characters, and after r characters no plain character can follow. No state before that
    /// may end its rule or call another, so no stack below can read more either. Then the plain tokens
    /// of at most r characters are allowed and every longer one is rejected, whatever the stack, and
    /// only the non-plain tokens need a walk (`VocabularyIndex.exactSlices`). Without this, every
    /// position of a short `maxLength` string walked most of the trie on its first visit (1-3 ms).
    ///
    /// `returns`: after the r characters every state ends its rule instead (it accepts, reads no plain
    /// character and calls nothing): the last positions of a long string's 128-character block
    /// (`LongRepeatBlocks`), whose caller reads the next block. Then every longer plain token goes on in
    /// the caller after exactly r characters, and `cacheEntry` lists it as a tail without a walk.
    /// nil when plain text is not bounded this way, or the check passes its budget.
    mutating func exactRoom(state: Int32) -> (room: Int, returns: Bool)? {
        let t = compiled.tables
        let bound = VocabularyIndex.exactSliceBound
        let budget = 32 * (bound + 1)
        var pairs = 0
        var layer: [Int32] = [state]
        for depth in 0..<bound {
            // Layer `depth`: the states after `depth` plain characters. Either all of them read every
            // plain character (go on) or none reads any (the room is `depth`); anything else is no bound.
            var next: [Int32] = []
            var nextSeen = Set<Int32>()
            var readsSome = false, rejectsSome = false
            var accepting = 0
            visited.reset()
            var stack: [(state: Int32, u: UInt8)] = layer.map { ($0, SliceUTF8.boundary) }
            while let (q, u) = stack.popLast() {
                if !visited.insert(Int(q) * SliceUTF8.stateCount + Int(u)) { continue }
                pairs += 1
                let flags = t.stateFlags(q)
                if pairs > budget || flags & GrammarAutomaton.hasCalls != 0 { return nil }
                if flags & GrammarAutomaton.accepting != 0 {
                    // Only at the end of the room, between characters (checked below).
                    if u != SliceUTF8.boundary || depth == 0 { return nil }
                    accepting += 1
                }
                for (cls, u2) in compiled.sliceEdges[Int(u)] {
                    var target = t.entry(q, cls)
                    if target == 0 { target = t.automaton.materialize(q, cls) }
                    if target < 0 {
                        // A character cut short after its lead byte is no clean bound.
                        if u != SliceUTF8.boundary { return nil }
                        rejectsSome = true
                        continue
                    }
                    if u == SliceUTF8.boundary { readsSome = true }
                    if u2 == SliceUTF8.boundary {
                        if nextSeen.insert(target).inserted { next.append(target) }
                    } else {
                        stack.append((target, u2))
                    }
                }
            }
            if accepting > 0 {
                // A return is exact only where every state of the layer returns and none reads on.
                return accepting == layer.count && !readsSome ? (depth, true) : nil
            }
            if rejectsSome { return !readsSome && depth >= 1 ? (depth, false) : nil }
            layer = next
        }
        return nil
    }

    /// Pairs an unbounded string's loop needs at most (one per position inside a UTF-8 character and
    /// lead-byte group, and a few around it).
    static var sliceLoopPairs: Int { 64 }
    /// NFA states per deterministic state above which `chooseSlice` asks the proof first. At 256 only
    /// searches qualified; a key position inside an undeclared member of a 153-name object (~30 NFA
    /// states) spent 1.5 ms in deterministic checks that failed (650 states) before the proof.
    static var proofFirstSetSize: Int { 24 }
    /// Above this many, where the text branches (`textTargets`), the proof is asked first too: the
    /// first key position of an object that takes undeclared names (~12 NFA states) spent 0.5-2 ms in
    /// the loop and 16-character checks' states (one per prefix of every declared name) before it. A
    /// bounded string inside `anyOf` branches has as many NFA states per position, and there the proof
    /// follows the chain of positions to its end (1.3 → 6 ms when it came first for every such state).
    static var branchingProofSetSize: Int { 8 }
    /// Pairs a proof asked first where the text branches two ways may explore (see `chooseSlice`).
    static var branchingProofPairs: Int { 1_024 }

    /// True when `state`'s own rule can read, by byte transitions alone (no pop, no push), every string
    /// of plain JSON string characters up to `slice.maxCharacters` long. Then every token of the slice is
    /// allowed from `state` whatever the stack below holds.
    ///
    /// A search over (automaton state, position in a UTF-8 character) pairs: every byte the text
    /// automaton allows must have a transition. A state inside an unbounded string passes with a handful
    /// of pairs, an object key that must differ from the declared names with about one pair per prefix
    /// of those names; the search gives up past its budget, e.g. in a string whose `maxLength` leaves too
    /// little room.
    ///
    /// A bounded slice is searched twice at most. First depth first over (pair, characters read), which
    /// stops at the first byte without a transition, most often deep in the text, after few pairs. Where
    /// that passes its budget, layer by layer (characters read) with each pair expanded once, at the
    /// fewest characters it is reached after (the most room left after it, so a later visit asks less):
    /// a pattern of counted words (`(?:\S+\s+){0,99}`) reaches the same few states at many depths, and a
    /// pair per depth took about 2,400 expansions for 16 characters, far past the budget, so every such
    /// word walked the whole trie. Breadth first from the start, a check that fails at its ninth
    /// character expanded every pair of the eight before it (2.6 ms in a key of enumerated names).
    mutating func sliceApplies(_ slice: TokenSlice, state: Int32, pairBudget: Int? = nil, excludingAtBoundary skipped: Set<Int> = []) -> Bool {
        let bounded = slice.maxCharacters != Int.max
        let depthLimit = bounded ? slice.maxCharacters : 0
        var work = TextSearchWork(stepLimit: compiled.vocabulary.checkBudget(Self.sliceCheckSteps),
                                  setBytesLimit: compiled.vocabulary.checkBudget(Self.sliceCheckSetBytes),
                                  setBytesAtStart: compiled.tables.automaton.setBytesBuilt)
        // A bounded string's chain of length-counting states has about 20 pairs per character: one
        // between characters and one per continuation byte still expected after each group of lead bytes
        // the grammar spells separately (E0, E1–EC, ED, EE–EF, F0, F1–F3, F4). Text of counted words
        // (`\S` and `\s` part at lead bytes) has more than 34 per character over 16 once each pair
        // counts once. Unbounded: enough for a key automaton that excludes a hundred declared names.
        guard bounded else { return searchText(state, depthLimit: 0, budget: pairBudget ?? 16_384, layered: false, skipped, &work) ?? false }
        if let r = searchText(state, depthLimit: depthLimit, budget: pairBudget ?? 32 * (depthLimit + 1), layered: false, skipped, &work) { return r }
        // Layered only where the first search met its pairs at several depths each, 2.5 on average (words
        // met them at 2.9-4.3); where most pairs have one or two (a trie of names, a length chain, searched
        // words) it would expand the same pairs again, each layer in full before the one where the text
        // fails (o65510's and o12278's `scopes`: about 2 each, 3 ms more per first visit when layered).
        if pairBudget != nil || depthLimit > Self.maxDepthMaskLimit || 2 * work.expanded < 5 * visited.count { return false }
        return searchText(state, depthLimit: depthLimit, budget: 64 * (depthLimit + 1), layered: true, skipped, &work) ?? false
    }

    /// Bounded searches keep the depths a pair was expanded at as bits of one value.
    static var maxDepthMaskLimit: Int { 30 }

    /// What one `sliceApplies` may spend over its searches.
    struct TextSearchWork {
        var steps = 0
        /// Pairs expanded by the last search (per depth where it was depth first).
        var expanded = 0
        let stepLimit: Int
        let setBytesLimit: Int
        let setBytesAtStart: Int
    }

    /// One search of `sliceApplies`: true when every text up to `depthLimit` characters (0: any) is read,
    /// false when some byte is not or the work limits are passed, nil past `budget` pairs expanded.
    /// `layered`: breadth first over pairs, else depth first over (pair, characters read).
    mutating func searchText(_ state: Int32, depthLimit: Int, budget: Int, layered: Bool, _ skipped: Set<Int>,
                             _ work: inout TextSearchWork) -> Bool? {
        let t = compiled.tables
        let bounded = depthLimit > 0
        // Depth first and bounded: one key per pair, its value the depths it was met at (bits; deeper
        // limits key each depth apart), so that `sliceApplies` can tell how many distinct pairs it met.
        let depthBits = bounded && !layered && depthLimit <= Self.maxDepthMaskLimit
        let depthKeys = layered || depthBits ? 1 : depthLimit + 1
        visited.reset()
        var stack: [(state: Int32, u: UInt8, depth: Int)] = [(state, SliceUTF8.boundary, 0)]
        var nextLayer: [(state: Int32, u: UInt8, depth: Int)] = []
        work.expanded = 0
        while true {
            while let (q, u, d) = stack.popLast() {
                let key = (Int(q) * SliceUTF8.stateCount + Int(u)) * depthKeys + (depthKeys == 1 ? 0 : d)
                if depthBits {
                    let bit = Int32(1) << Int32(d)
                    let before = visited.count
                    let seen = visited.value(for: key, inserting: bit)
                    if visited.count == before {
                        if seen & bit != 0 { continue }
                        visited.update(key, to: seen | bit)
                    }
                } else if !visited.insert(key) { continue }
                if bounded && u == SliceUTF8.boundary && d == depthLimit { continue }
                work.expanded += 1
                if work.expanded > budget { return nil }
                let edges = compiled.sliceEdges[Int(u)]
                work.steps += edges.count
                if work.steps > work.stepLimit { return false }
                for (cls, u2) in edges {
                    // A gap slice's excluded characters (single-byte, read between characters) are not read.
                    if u2 == SliceUTF8.boundary && u == SliceUTF8.boundary && !skipped.isEmpty && skipped.contains(cls) { continue }
                    var target = t.entry(q, Int(cls))
                    if target == 0 {
                        target = t.automaton.materialize(q, Int(cls))
                        if t.automaton.setBytesBuilt - work.setBytesAtStart > work.setBytesLimit { return false }
                    }
                    if target < 0 { return false }
                    if bounded && u2 == SliceUTF8.boundary {
                        if layered { nextLayer.append((target, u2, d + 1)) } else { stack.append((target, u2, d + 1)) }
                    } else {
                        stack.append((target, u2, d))
                    }
                }
            }
            if nextLayer.isEmpty { return true }
            swap(&stack, &nextLayer)
        }
    }
}
