/// Arrays of distinct strings (`DistinctItems`): which stacks are inside one, what reading a byte does
/// to the open array, and the tokens a mask must refuse there.
extension GrammarMatcher {
    /// Where `state` stands toward the arrays (`DistinctItems.outside`, `.entry`, `.inside(k)`), asked of
    /// the automaton once per state and matcher.
    @inline(__always)
    mutating func mark(_ state: Int32) -> Int32 {
        let known = distinct.marks.value(for: Int(state), inserting: 0)
        return known != 0 ? known : learnMark(state)
    }

    @inline(never)
    private mutating func learnMark(_ state: Int32) -> Int32 {
        let m = compiled.automaton.distinctMark(of: state)
        distinct.marks.update(Int(state), to: m)
        return m
    }

    /// The kept rule of the array of distinct strings that the stack with top frame `top` is inside, or
    /// -1: the first frame from the top in a state of such an array's rule past its `[`. (Everything
    /// above that frame is inside one of its items, since the items are strings.)
    mutating func insideRule(_ top: Int32) -> Int {
        var x = top
        while x >= 0 {
            let n = engine.nodes[Int(x)]
            let m = mark(n.state)
            if m >= 3 { return DistinctItems.rule(ofInside: m) }
            x = n.parent
        }
        return -1
    }

    mutating func insideDistinct(_ top: Int32) -> Bool { insideRule(top) >= 0 }

    mutating func anyInsideDistinct(_ lo: Int, _ hi: Int) -> Bool {
        var j = lo
        while j < hi {
            if insideDistinct(engine.items[j]) { return true }
            j += 1
        }
        return false
    }

    /// Appends the stacks of `items[lo ..< hi]` that are not inside an array of distinct strings, and
    /// returns their range: the parses that may read a quote closing a repeated item.
    mutating func dropInsideDistinct(_ lo: Int, _ hi: Int) -> (lo: Int, hi: Int) {
        let start = engine.items.count
        // A repeat in an array of strings inside an item of an array of values stops only the parses
        // whose innermost such array is of strings (the others read no array there).
        let innerOnly = distinct.repeatIsInner
        for j in lo..<hi {
            let x = engine.items[j]
            let k = insideRule(x)
            if k < 0 || (innerOnly && compiled.automaton.distinctByValue[k]) { engine.items.append(x) }
        }
        return (start, engine.items.count)
    }

    /// Whether some stack of `items[lo ..< hi]` is inside an array of distinct strings as its innermost one.
    private mutating func anyInsideStrings(_ lo: Int, _ hi: Int) -> Bool {
        var j = lo
        while j < hi {
            let k = insideRule(engine.items[j])
            if k >= 0 && !compiled.automaton.distinctByValue[k] { return true }
            j += 1
        }
        return false
    }

    /// Appends the stacks of `items[lo ..< hi]` other than those inside an array of a language with an
    /// end that `event` leaves without enough unwritten values (`DistinctItems.feasible`), and returns
    /// their range; nil when every stack stays (nothing appended).
    mutating func dropInfeasible(_ lo: Int, _ hi: Int, _ event: DistinctItems.Event, _ p: DistinctItems.Position) -> (lo: Int, hi: Int)? {
        // Two passes, the second only when some stack goes (rare): nothing allocated per byte.
        guard (lo..<hi).contains(where: { !feasible(engine.items[$0], event, p) }) else { return nil }
        let start = engine.items.count
        for j in lo..<hi where feasible(engine.items[j], event, p) { engine.items.append(engine.items[j]) }
        return (start, engine.items.count)
    }

    /// Whether the stack with top frame `top` may read on after `event`: outside any array of a language
    /// with an end, or inside one that `event` leaves enough unwritten values.
    private mutating func feasible(_ top: Int32, _ event: DistinctItems.Event, _ p: DistinctItems.Position) -> Bool {
        if p.byValue { return true }   // (read as values: no text positions to count on)
        let k = insideRule(top)
        guard k >= 0, let list = compiled.automaton.distinctValues[k] else { return true }
        return distinct.feasible(list, event, p)
    }

    /// After byte `b` was read into the closed stacks `items[lo ..< hi]`: whether an array is open now.
    /// An array opens at a `[` after which some stack is inside one, and closes when none is; a `[`
    /// outside a string read while one is open begins another (no parse inside the first reads it).
    mutating func updateDistinct(after b: UInt8, _ p: inout DistinctItems.Position, _ lo: Int, _ hi: Int) {
        if p.active {
            if !anyInsideDistinct(lo, hi) {
                p.active = false
                p.inString = false
                p.escaped = false
            } else if b == DistinctItems.open && !p.inString && !p.byValue {
                openArray(&p, lo, hi)
            } else if b == DistinctItems.open && !p.inString && !p.inner && p.depth > 0 && anyInsideStrings(lo, hi) {
                // In an array of values a `[` begins an item or nests in one (`readValue` counted it);
                // where a parse enters an array of distinct strings there, its strings are tracked too.
                p.openInner()
            }
        } else if b == DistinctItems.open && anyInsideDistinct(lo, hi) {
            openArray(&p, lo, hi)
        }
    }

    /// Opens the array that stacks of `items[lo ..< hi]` are inside, of its rule's kind. Where arrays of
    /// both kinds open at one bracket (an `anyOf` of an array of strings and one of values), the items
    /// are read as values: that finds every repeat reading as strings would (strings compare by their
    /// canonical form), though the strings' listed-value checks then stand aside (`feasible`).
    private mutating func openArray(_ p: inout DistinctItems.Position, _ lo: Int, _ hi: Int) {
        let a = compiled.automaton
        var found = false, byValue = false, zero = false
        var j = lo
        while j < hi {
            let k = insideRule(engine.items[j])
            if k >= 0 {
                found = true
                if a.distinctByValue[k] { byValue = true; zero = zero || a.distinctZeroIsDecided[k] }
            }
            j += 1
        }
        if found { p.openArray(byValue: byValue, zeroIsDecided: byValue && zero) }
    }

    /// Clears from `mask` every token that would close an item equal to an earlier item of its array,
    /// unless a parse outside the array reads it (each such token is accepted and rolled back: exact).
    ///
    /// Only tokens holding a quote close an item. In an open string, from a plain position, a token whose
    /// first quote closes it repeats an item exactly when the string's text so far plus the token's bytes
    /// before that quote is an earlier item: those tokens are found by hash (`QuoteTokens.closing`), from
    /// the earlier items that begin with the text so far. A token may also close a second item after the
    /// first (three quotes or more), or a whole item between items (two or more), or, outside any array,
    /// open one and close two items in it (`[` and four quotes): those few are read byte by byte.
    mutating func refuseRepeatedItems(_ mask: UnsafeMutablePointer<UInt32>) throws(MatcherError) {
        try refuseRepeatedItemsOfPrimaries(mask)
        // A token spelled like another (`VocabularyIndex.duplicatePairs`) shares its fate; the token
        // trie holds only the first of them, and `refuseExhausted` reads the trie.
        let dups = compiled.vocabulary.duplicatePairs
        var k = 0
        while k < dups.count {
            let primary = dups[k], duplicate = dups[k + 1]
            if !isSet(mask, primary) { mask[Int(duplicate >> 5)] &= ~(1 << (duplicate & 31)) }
            k += 2
        }
    }

    private mutating func refuseRepeatedItemsOfPrimaries(_ mask: UnsafeMutablePointer<UInt32>) throws(MatcherError) {
        guard let q = compiled.quoteTokens else { return }
        let p = distinctPositions[distinctPositions.count - 1]
        if p.active { distinct.filter(from: p.lastItem) }
        if compiled.automaton.hasDistinctValueItems {
            // Arrays of values: only a token that completes an item can repeat one (`readValue` says
            // where items complete). In a string, such tokens hold a quote (its own string) or a quote
            // and a `}` or `]` (an enclosing object or array); inside an object or array, a `}` or `]`; at the
            // array's level, between items or in a number or literal, the mask is read whole (it holds
            // value starts, digits and separators). Outside any array, a token opening one holds `[`.
            if p.active && p.byValue {
                if p.inner {
                    // An array of strings inside the item: in one of its strings, a token must leave it.
                    if p.inString {
                        try refuseFailing(q.oneQuote, from: p, lists: [], mask)
                    } else {
                        try refuseFailing(allowedIn: mask, from: p, lists: [])
                    }
                } else if p.inString && p.depth == 0 {
                    try refuseFailing(q.oneQuote, from: p, lists: [], mask)
                } else if p.depth > 0 {
                    // (In a string, a token must also leave it: most of the vocabulary is allowed there.
                    // A token may also open an array of distinct strings in the item and repeat in it.)
                    let nested = compiled.automaton.hasNestedDistinct
                    if p.inString {
                        try refuseFailing(q.quoteCloserTokens, from: p, lists: [], mask)
                        if nested { try refuseFailing(q.bracketTokens, from: p, lists: [], mask) }
                    } else {
                        try refuseFailing(q.closerTokens, from: p, lists: [], mask)
                        if nested { try refuseFailing(q.openTokens, from: p, lists: [], mask) }
                    }
                } else {
                    try refuseFailing(allowedIn: mask, from: p, lists: [])
                }
                return
            }
            if !p.active { try refuseFailing(q.openTokens, from: p, lists: [], mask) }
        }
        if !compiled.automaton.distinctLists.isEmpty {
            // Arrays of a language with an end: besides repeats, a token may leave one short of values. A
            // text can run out of unwritten values only if it begins some written item, so in a string the
            // candidates are the tokens that spell on into a written item past where its completions are
            // all written (`refuseExhausted`), and those holding a quote (they close the string: a repeat,
            // a separator with nothing left); between items, the tokens holding a quote or a comma; outside
            // any array, those that may open one and go on in it.
            if p.active {
                let lists = listsOfOpenArray()
                if !lists.isEmpty {
                    if p.inString && !p.escaped {
                        try refuseFailing(q.oneQuote, from: p, lists: lists, mask)
                        try refuseExhausted(from: p, lists: lists, mask)
                    } else if p.inString {
                        try refuseFailing(allowedIn: mask, from: p, lists: lists)
                    } else {
                        try refuseFailing(q.oneQuote, from: p, lists: lists, mask)
                        try refuseFailing(q.commaTokens, from: p, lists: lists, mask)
                    }
                    return
                }
            } else {
                try refuseFailing(q.bracketTokens, from: p, lists: compiled.automaton.distinctLists, mask)
                return
            }
        }
        if p.active && p.inString && !p.escaped {
            let start = Int(p.stringStart), length = Int(p.byteCount) - start
            var i = Int(p.lastItem)
            while i >= 0 {
                let item = distinct.items[i]
                i = Int(item.previous)
                let itemLength = Int(item.end - item.start)
                // No token holds more text before its quote than `longestClosing`.
                guard itemLength >= length, itemLength - length <= q.longestClosing,
                      distinct.equal(Int(item.start), start, count: length) else { continue }
                let restStart = Int(item.start) + length, rest = itemLength - length
                var hash = item.hash
                if length > 0 {
                    hash = DistinctItems.seed
                    for k in restStart..<Int(item.end) { hash = DistinctItems.mix(hash, distinct.bytes[k]) }
                }
                var j = q.firstClosing(hash)
                while j < q.closing.count && q.closing[j].hash == hash {
                    let c = q.closing[j]
                    j += 1
                    guard Int(c.length) == rest, isSet(mask, c.token), tokenBegins(c.token, with: restStart, count: rest) else { continue }
                    try refuseIfRefused(c.token, mask)
                }
            }
            try refuseFailing(q.threeQuotes, from: p, lists: [], mask)
        } else if p.active && p.inString {
            try refuseFailing(q.oneQuote, from: p, lists: [], mask)
        } else if p.active {
            try refuseFailing(q.twoQuotes, from: p, lists: [], mask)
        } else {
            try refuseFailing(q.bracketFourQuotes, from: p, lists: [], mask)
        }
    }

    /// The languages with an end (`DistinctValues`) of the arrays that the current stacks are inside.
    private mutating func listsOfOpenArray() -> [DistinctValues] {
        let cp = current
        var out: [DistinctValues] = []
        for i in Int(cp.setStart)..<Int(cp.setEnd) {
            let k = insideRule(sets[i])
            if k >= 0, let list = compiled.automaton.distinctValues[k], !out.contains(where: { $0 === list }) { out.append(list) }
        }
        return out
    }

    private mutating func refuseFailing(allowedIn mask: UnsafeMutablePointer<UInt32>, from p: DistinctItems.Position,
                                        lists: [DistinctValues]) throws(MatcherError) {
        let vocab = compiled.vocabulary
        let count = min(vocab.vocabulary.tokenCount, vocab.maskWords * 32)
        for w in 0..<vocab.maskWords {
            var bits = mask[w]
            while bits != 0 {
                let t = w * 32 + bits.trailingZeroBitCount
                bits &= bits - 1
                guard t < count, !vocab.vocabulary.isSpecial(t) else { continue }
                if mayFail(UInt32(t), from: p, lists: lists) { try refuseIfRefused(UInt32(t), mask) }
            }
        }
    }

    /// In an open string: for each written item that begins with the text so far, the shortest longer
    /// prefix of it whose completions are all written (under some list), and the allowed tokens that
    /// spell on from the text to there or past it (the token trie's subtree there).
    private mutating func refuseExhausted(from p: DistinctItems.Position, lists: [DistinctValues],
                                          _ mask: UnsafeMutablePointer<UInt32>) throws(MatcherError) {
        let start = Int(p.stringStart), length = Int(p.byteCount) - start
        let trie = compiled.tables.trie, trieCount = compiled.tables.trieCount
        var wide: [(from: Int, count: Int)] = []
        var i = Int(p.lastItem)
        while i >= 0 {
            let item = distinct.items[i]
            i = Int(item.previous)
            let itemStart = Int(item.start), itemLength = Int(item.end - item.start)
            guard itemLength > length, distinct.equal(itemStart, start, count: length) else { continue }
            // written[m]: the written items that begin with the item's first m bytes (by their common
            // prefix with it, one pass), so each prefix's check below is a count, not a walk.
            var written = [Int](repeating: 0, count: itemLength + 2)
            var j = Int(p.lastItem)
            while j >= 0 {
                let other = distinct.items[j]
                j = Int(other.previous)
                let n = min(itemLength, Int(other.end - other.start))
                var common = 0
                while common < n && distinct.bytes[Int(other.start) + common] == distinct.bytes[itemStart + common] { common += 1 }
                written[common] += 1
            }
            for m in stride(from: itemLength, through: 0, by: -1) { written[m] += written[m + 1] }
            var exhausted = -1
            for m in (length + 1)...itemLength
            where lists.contains(where: { list in
                let values = distinct.bytes.withUnsafeBufferPointer { buf in
                    list.isCounted ? list.completions(of: buf, itemStart, itemStart + m)
                                   : list.range(beginningWith: buf, itemStart, itemStart + m).count
                }
                return values > 0 && written[m] >= values
            }) {
                exhausted = m
                break
            }
            guard exhausted > 0 else { continue }
            // The trie node of the item's bytes from the text's end to the exhausted prefix.
            var node = -1, lo = 0, hi = trieCount
            for k in (itemStart + length)..<(itemStart + exhausted) {
                let b = distinct.bytes[k]
                node = -1
                var j = lo
                while j < hi {
                    if trie[j].byte == b { node = j; break }
                    j += trie[j].subtreeSize
                }
                if node < 0 { break }
                lo = node + 1
                hi = node + trie[node].subtreeSize
            }
            guard node >= 0 else { continue }
            // Subtrees beyond a 1,024th of the vocabulary (148 nodes for Qwen2) are not scanned for
            // candidates: the allowed tokens are read instead, once for all such items (in an array of
            // listed values the mask holds few tokens). The tests' small vocabularies take both ways.
            let size = trie[node].subtreeSize
            if size <= max(2, compiled.vocabulary.vocabulary.tokenCount / 1024) {
                for j in node..<(node + size) where trie[j].hasToken {
                    let t = UInt32(trie[j].token)
                    if isSet(mask, t) && mayFail(t, from: p, lists: lists) { try refuseIfRefused(t, mask) }
                }
            } else {
                // A short exhausted prefix: its subtree holds much of the vocabulary, the mask far fewer
                // tokens (the grammar allows only continuations of its values); read the mask once below.
                wide.append((itemStart + length, exhausted - length))
            }
        }
        guard !wide.isEmpty else { return }
        let vocab = compiled.vocabulary
        for w in 0..<vocab.maskWords {
            var bits = mask[w]
            while bits != 0 {
                let t = w * 32 + bits.trailingZeroBitCount
                bits &= bits - 1
                guard t < vocab.vocabulary.tokenCount,
                      wide.contains(where: { tokenBegins(UInt32(t), with: $0.from, count: $0.count) }) else { continue }
                if mayFail(UInt32(t), from: p, lists: lists) { try refuseIfRefused(UInt32(t), mask) }
            }
        }
    }

    private mutating func refuseFailing(_ tokens: [UInt32], from p: DistinctItems.Position, lists: [DistinctValues],
                                        _ mask: UnsafeMutablePointer<UInt32>) throws(MatcherError) {
        for t in tokens where isSet(mask, t) {
            if mayFail(t, from: p, lists: lists) { try refuseIfRefused(t, mask) }
        }
    }

    /// Whether reading token `t` from `p` may close a repeated item or leave an array of one of `lists`
    /// short of values (a superset: the reader opens an array at every `[` outside a string, and the
    /// accept that follows decides).
    private mutating func mayFail(_ t: UInt32, from p: DistinctItems.Position, lists: [DistinctValues]) -> Bool {
        let vocab = compiled.vocabulary
        var s = p
        var failed = false
        for k in Int(vocab.tokenOffsets[Int(t)])..<Int(vocab.tokenOffsets[Int(t) + 1]) {
            let b = vocab.tokenBytes[k]
            if s.active && s.byValue {
                let closes = !s.inString && s.depth == 0 && b == DistinctItems.close
                if distinct.read(b, &s) { failed = true; break }
                if closes { s.active = false }
                // Any `[` inside an item may open an array of distinct strings (the accept decides).
                if b == DistinctItems.open && !s.inString && !s.inner && s.depth > 0 && compiled.automaton.hasNestedDistinct { s.openInner() }
            } else if s.active {
                if distinct.read(b, &s) { failed = true; break }
                let event = DistinctItems.event(after: b, s)
                // (A list none of whose values begins with the text cannot be this array's: its parses do
                // not read the byte, and the accept drops them by itself.)
                if event != .none && lists.contains(where: { !distinct.feasible($0, event, s, absentIsFeasible: true) }) {
                    failed = true
                    break
                }
                if !s.inString && b == DistinctItems.close { s.active = false }
                if !s.inString && b == DistinctItems.open { s.openArray() }
            } else if b == DistinctItems.open {
                // Which array opens is the accept's to say; where some are of values, reading as values
                // (with `0` decided) finds every repeat reading as strings would, and more.
                let values = compiled.automaton.hasDistinctValueItems
                s.openArray(byValue: values, zeroIsDecided: values)
            }
        }
        distinct.truncate(to: p)
        return failed
    }

    @inline(__always)
    private func isSet(_ mask: UnsafeMutablePointer<UInt32>, _ t: UInt32) -> Bool { mask[Int(t >> 5)] & (1 << (t & 31)) != 0 }

    /// Whether token `t`'s bytes begin with `distinct.bytes[from ..< from + count]`.
    private func tokenBegins(_ t: UInt32, with from: Int, count: Int) -> Bool {
        let vocab = compiled.vocabulary
        let lo = Int(vocab.tokenOffsets[Int(t)])
        guard Int(vocab.tokenOffsets[Int(t) + 1]) - lo >= count else { return false }
        for k in 0..<count where vocab.tokenBytes[lo + k] != distinct.bytes[from + k] { return false }
        return true
    }

}
