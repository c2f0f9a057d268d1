import GuidedGrammar

/// Strings of counted length (`CountedStrings`): which stacks are inside one, what reading bytes does to
/// the open lanes, and the tokens a mask must refuse.
extension GrammarMatcher {
    /// `CountedStrings.outside` or `.inside(i)` for `state`, asked of the automaton once per state and matcher.
    @inline(__always)
    mutating func countedMark(_ state: Int32) -> Int32 {
        let known = counted.marks.value(for: Int(state), inserting: 0)
        if known != 0 { return known }
        let m = compiled.automaton.countedMark(of: state)
        counted.marks.update(Int(state), to: m)
        return m
    }

    /// The counted length whose string the stack with top frame `top` is reading, or -1. (A string's
    /// content calls only rules of the same string, so its top frame says.)
    @inline(__always)
    mutating func countedIndex(ofStack top: Int32) -> Int {
        CountedStrings.index(ofInside: countedMark(engine.nodes[Int(top)].state))
    }

    /// After an opening quote was read into the closed stacks `items[lo ..< hi]`: a lane for each counted
    /// length whose string some stack entered.
    mutating func openLanes(_ p: inout CountedStrings.Position, _ lo: Int, _ hi: Int) throws(MatcherError) {
        for j in lo..<hi {
            let i = countedIndex(ofStack: engine.items[j])
            guard i >= 0, !(0..<Int(p.laneCount)).contains(where: { Int(p[$0].index) == i }) else { continue }
            guard Int(p.laneCount) < CountedStrings.laneCapacity else {
                try fail(.tooManyCountedStrings(limit: CountedStrings.laneCapacity))
            }
            p[Int(p.laneCount)] = CountedStrings.Lane(index: Int32(i), reader: 0, state: 0, count: 0)
            p.laneCount += 1
        }
    }

    /// Appends the stacks of `items[lo ..< hi]` that are not in lane `index`'s string and returns their
    /// range; nil when none is in it (nothing appended).
    mutating func dropCounted(_ index: Int, _ lo: Int, _ hi: Int) -> (lo: Int, hi: Int)? {
        guard (lo..<hi).contains(where: { countedIndex(ofStack: engine.items[$0]) == index }) else { return nil }
        let start = engine.items.count
        for j in lo..<hi where countedIndex(ofStack: engine.items[j]) != index { engine.items.append(engine.items[j]) }
        return (start, engine.items.count)
    }

    /// Before byte `b` is read into the stacks `items[lo ..< hi]` with lanes open: reads it into the lanes,
    /// and where it is the closing quote, drops the stacks of each lane whose length is out of bounds and
    /// closes the lanes. Returns the stacks that read `b`.
    mutating func readCounted(_ b: UInt8, _ p: inout CountedStrings.Position, _ lo: Int, _ hi: Int) -> (lo: Int, hi: Int) {
        let lengths = compiled.automaton.countedLengths
        var range = (lo: lo, hi: hi)
        if CountedStrings.closes(b, p) {
            for i in 0..<Int(p.laneCount) {
                let lane = p[i]
                if !lengths[Int(lane.index)].allows(length: Int(lane.count)), let kept = dropCounted(Int(lane.index), range.lo, range.hi) {
                    range = kept
                }
            }
            p.laneCount = 0
            return range
        }
        CountedStrings.read(b, &p, lengths)
        return range
    }

    /// After a token: drops the stacks of each open lane from whose state and count no completion lands
    /// within the bounds. Returns the stacks kept.
    mutating func dropUnfinishable(_ p: CountedStrings.Position, _ lo: Int, _ hi: Int) -> (lo: Int, hi: Int) {
        let lengths = compiled.automaton.countedLengths
        var range = (lo: lo, hi: hi)
        for i in 0..<Int(p.laneCount) {
            let lane = p[i]
            if lane.state >= 0 && !lengths[Int(lane.index)].canFinish(state: lane.state, count: Int(lane.count)),
               let kept = dropCounted(Int(lane.index), range.lo, range.hi) {
                range = kept
            }
        }
        return range
    }

    /// Clears from `mask` every token that would close a counted string with a length out of bounds or
    /// leave it where no completion lands within them, unless a parse outside the string reads it (each
    /// such token is accepted and rolled back: exact). Only the tokens longer than the counts to spare
    /// are read (tokens sorted by length: far from the bounds, none), below `minimum` the tokens holding
    /// a quote, and, open or not, the few that may open a string and fail it within themselves
    /// (`CompiledGrammar.countedOpeningRisks`).
    mutating func refuseOutOfBounds(_ mask: UnsafeMutablePointer<UInt32>) throws(MatcherError) {
        let p = countedPositions[countedPositions.count - 1]
        // A token may open a counted string (closing another first) and go wrong within itself.
        for t in compiled.countedOpeningRisks where mask[Int(t >> 5)] & (1 << (t & 31)) != 0 {
            try refuseIfRefused(t, mask)
        }
        guard p.isOpen else { return }
        let lengths = compiled.automaton.countedLengths
        let quotes = compiled.vocabulary.quoteTokens
        // A token of k bytes adds at most k code points: where every count up to `count + spare` is one at
        // which every state can still finish, only tokens longer than `spare` may fail (and, below
        // `minLength`, those holding a quote: they may close the string short).
        var spare = Int.max, readQuotes = false
        for i in 0..<Int(p.laneCount) {
            let lane = p[i], c = lengths[Int(lane.index)]
            guard lane.state >= 0 else { continue }
            let count = Int(lane.count)
            spare = min(spare, c.lastSafeCount(from: count) - count)
            if count < c.minimum { readQuotes = true }
        }
        // Where every stack is in a lane's string, a token that fails every lane is refused without an accept.
        let cp = current
        let allInside = (Int(cp.setStart)..<Int(cp.setEnd)).allSatisfy { countedIndex(ofStack: sets[$0]) >= 0 }
        let vocab = compiled.vocabulary
        for t in quotes.byLength {
            guard Int(vocab.tokenOffsets[Int(t) + 1] - vocab.tokenOffsets[Int(t)]) > spare else { break }
            if mask[Int(t >> 5)] & (1 << (t & 31)) != 0 { try refuseIfFailing(t, from: p, allInside: allInside, mask) }
        }
        if readQuotes {
            // (Those longer than `spare` were read above.)
            for t in quotes.oneQuote where mask[Int(t >> 5)] & (1 << (t & 31)) != 0
                && Int(vocab.tokenOffsets[Int(t) + 1] - vocab.tokenOffsets[Int(t)]) <= spare {
                try refuseIfFailing(t, from: p, allInside: allInside, mask)
            }
        }
    }

    @inline(__always)
    private mutating func refuseIfFailing(_ t: UInt32, from p: CountedStrings.Position, allInside: Bool,
                                          _ mask: UnsafeMutablePointer<UInt32>) throws(MatcherError) {
        let (some, every) = countedFailures(t, from: p)
        if every && allInside { mask[Int(t >> 5)] &= ~(1 << (t & 31)) } else if some { try refuseIfRefused(t, mask) }
    }

    /// Whether reading token `t` from `p` closes some lane's string out of bounds or leaves it unable to
    /// finish within them, and whether it does so to every lane still in its language (the accept decides
    /// where only some fail, or parses outside the strings may read the token).
    private func countedFailures(_ t: UInt32, from p: CountedStrings.Position) -> (some: Bool, every: Bool) {
        let vocab = compiled.vocabulary
        let lengths = compiled.automaton.countedLengths
        var s = p
        var some = false, every = true
        for k in Int(vocab.tokenOffsets[Int(t)])..<Int(vocab.tokenOffsets[Int(t) + 1]) {
            let b = vocab.tokenBytes[k]
            if CountedStrings.closes(b, s) {
                for i in 0..<Int(s.laneCount) where s[i].state >= 0 {
                    let c = lengths[Int(s[i].index)]
                    if c.content.accepting[Int(s[i].state)] && !c.allows(length: Int(s[i].count)) { some = true } else { every = false }
                }
                return (some, every && some)
            }
            CountedStrings.read(b, &s, lengths)
        }
        for i in 0..<Int(s.laneCount) where s[i].state >= 0 {
            if !lengths[Int(s[i].index)].canFinish(state: s[i].state, count: Int(s[i].count)) { some = true } else { every = false }
        }
        return (some, every && some)
    }

    /// Accepts token `t` and rolls it back; clears its bit if it was refused.
    mutating func refuseIfRefused(_ t: UInt32, _ mask: UnsafeMutablePointer<UInt32>) throws(MatcherError) {
        do {
            try accept(token: Int(t))
        } catch {
            if case .tokenRejected = error {
                mask[Int(t >> 5)] &= ~(1 << (t & 31))
                return
            }
            throw error
        }
        try rollback(1)
    }
}
