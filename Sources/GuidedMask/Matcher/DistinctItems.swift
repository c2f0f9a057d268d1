/// What a matcher remembers of the arrays whose string items must be distinct (JSON Schema's
/// `uniqueItems`, lowered as rules marked `GrammarRule.distinctStringItems`).
///
/// Such an array holds nothing but `[`, `]`, separators, whitespace and JSON strings, and strings are
/// spelled in one canonical escaping, so two items are equal values exactly when their texts are equal.
/// While some parse is inside such an array (a stack frame of its rule past the `[`), the reader records
/// each item's text; a quote that closes an item equal to an earlier one of the same array is read only
/// by the parses that are not inside one (`GrammarMatcher.advance`). Where the items' language has an
/// end (`DistinctValues`), the parses inside are also dropped where a byte leaves too few unwritten
/// values (`feasible`). Arrays of distinct strings never nest (their items are strings), so one open
/// array is all there is to track.
///
/// Storage grows with the items read and is shared by all checkpoints: a checkpoint keeps the reader's
/// `Position`, whose counts say how much of `bytes` and `items` existed then (rollback truncates).
struct DistinctItems: Sendable {
    /// Where an automaton state stands toward the arrays (cached per matcher, `GrammarMatcher.mark`): a
    /// state of another rule, the start state of an array's rule (before its `[`), or a state of kept
    /// rule k's array past its `[` (`inside(k)`); 0 not asked yet.
    static let outside: Int32 = 1
    static let entry: Int32 = 2
    @inline(__always) static func inside(_ rule: Int) -> Int32 { Int32(3 + rule) }
    @inline(__always) static func rule(ofInside mark: Int32) -> Int { mark >= 3 ? Int(mark) - 3 : -1 }

    /// One item read: its text (`bytes[start ..< end]`, without quotes), the item before it in the same
    /// array (-1: none) and the text's hash.
    struct Item: Sendable {
        var start: Int32
        var end: Int32
        var previous: Int32
        var hash: UInt64
    }

    /// The reader's state after some input.
    struct Position: Sendable {
        /// Some parse is inside an array of distinct strings.
        var active = false
        var inString = false
        /// Inside a string, right after a backslash that escapes the next byte.
        var escaped = false
        /// The last item of the open array (-1: none yet).
        var lastItem: Int32 = -1
        /// Where the open string's text begins in `bytes`.
        var stringStart: Int32 = 0
        var hash: UInt64 = DistinctItems.seed
        /// Items of the open array.
        var count: Int32 = 0
        /// `bytes.count` and `items.count` when the position was saved.
        var byteCount: Int32 = 0
        var itemCount: Int32 = 0

        /// The open array's items are any JSON values, compared as values (`readValue`).
        var byValue = false
        /// With `byValue`: numbers are integers, so `0` is decided at its digit.
        var zeroIsDecided = false
        /// With `byValue`: the nesting inside the current item (0: at the array's own level).
        var depth: Int32 = 0
        /// With `byValue`: reading a number or literal at the array's level; `decided` once its value is
        /// known (a literal's first byte, an integer's `0`) and recorded, the rest of it not.
        var inScalar = false
        var decided = false
        /// With `byValue`: where the current item's text begins in `bytes`.
        var itemStart: Int32 = 0
        /// With `byValue`: an array of distinct strings open inside the current item (`inner`: its
        /// strings sit at nesting `innerDepth`), with its own chain of items (`innerLastItem`) and the
        /// current string's start.
        var inner = false
        var innerDepth: Int32 = 0
        var innerLastItem: Int32 = -1
        var innerItemStart: Int32 = 0

        /// An array of distinct strings opens inside the current item, right after its `[`.
        mutating func openInner() {
            inner = true
            innerDepth = depth
            innerLastItem = -1
        }

        /// Right after the `[` of an array: open, no item yet.
        mutating func openArray(byValue: Bool = false, zeroIsDecided: Bool = false) {
            active = true
            inString = false
            escaped = false
            lastItem = -1
            count = 0
            self.byValue = byValue
            self.zeroIsDecided = zeroIsDecided
            depth = 0
            inScalar = false
            decided = false
            inner = false
        }
    }

    var bytes: [UInt8] = []
    var items: [Item] = []
    /// Per automaton state met on a stack (`outside`, `entry`, `inside(k)`), filled on first use: a map,
    /// not an array by state id, since a grammar may have hundreds of thousands of states and a server
    /// thousands of matchers.
    var marks = VisitedSet()
    /// Two bits per hash of the items from `filtered` back (-1: none): most lookups of a text that no
    /// item has stop here. A mask reads each token that may close an item, and walking a long array's
    /// items for each was most of such a mask. Items are only appended above `filtered` or removed by
    /// `truncate`, which drops the filter when it removes `filtered`, so an index is never reused under it.
    var filter = [UInt64](repeating: 0, count: DistinctItems.filterWords)
    var filtered: Int32 = -1
    static let filterWords = 64
    /// Scratch space of `readValue`'s canonical forms (reused: nothing allocated per item once grown).
    var canonical = CanonicalJSON()
    /// Set by `readValue` when it reports a repeat: the repeat is an item of the inner array
    /// (`Position.inner`), so only the parses inside that array stop.
    var repeatIsInner = false

    static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
    /// FNV-1a, one byte.
    @inline(__always) static func mix(_ h: UInt64, _ b: UInt8) -> UInt64 { (h ^ UInt64(b)) &* 0x100_0000_01b3 }

    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    static let open = UInt8(ascii: "["), close = UInt8(ascii: "]")

    /// Reads one byte of an open array. True when it is the quote that closes an item equal to an earlier
    /// item of the array (the item is recorded all the same: the parses outside the array may go on).
    mutating func read(_ b: UInt8, _ p: inout Position) -> Bool {
        if p.byValue { return readValue(b, &p) }
        repeatIsInner = false
        guard p.inString else {
            if b == Self.quote {
                p.inString = true
                p.escaped = false
                p.stringStart = Int32(bytes.count)
                p.hash = Self.seed
            }
            return false
        }
        if Self.closesString(b, &p) {
            let start = Int(p.stringStart), end = bytes.count
            let repeated = find(start, end, hash: p.hash, from: p.lastItem)
            items.append(Item(start: p.stringStart, end: Int32(end), previous: p.lastItem, hash: p.hash))
            p.lastItem = Int32(items.count - 1)
            p.count += 1
            return repeated
        }
        bytes.append(b)
        p.hash = Self.mix(p.hash, b)
        return false
    }

    /// In a string: whether `b` is the quote that ends it (`p` then leaves the string); escapes tracked.
    @inline(__always)
    static func closesString(_ b: UInt8, _ p: inout Position) -> Bool {
        if p.escaped { p.escaped = false; return false }
        if b == backslash { p.escaped = true; return false }
        guard b == quote else { return false }
        p.inString = false
        return true
    }

    /// Whether the items from `last` back hold the text `bytes[start ..< end]`.
    func find(_ start: Int, _ end: Int, hash: UInt64, from last: Int32) -> Bool {
        var i = Int(last)
        while i >= 0 {
            // From the filtered item back, the filter says whether to look at all.
            if i == Int(filtered) && !mayHold(hash) { return false }
            let item = items[i]
            if item.hash == hash && Int(item.end - item.start) == end - start && equal(Int(item.start), start, count: end - start) { return true }
            i = Int(item.previous)
        }
        return false
    }

    @inline(__always)
    private func mayHold(_ hash: UInt64) -> Bool {
        let a = Int(hash & 4095), b = Int((hash >> 12) & 4095)
        return filter[a >> 6] & (1 << UInt64(a & 63)) != 0 && filter[b >> 6] & (1 << UInt64(b & 63)) != 0
    }

    /// Makes the filter hold the items from `last` back: one more bit pair when `last` follows the
    /// filtered item, else all of them again.
    mutating func filter(from last: Int32) {
        if last == filtered { return }
        // (With `filtered` -1 the filter is empty, and an item without a previous one is a chain by itself.)
        if last >= 0 && items[Int(last)].previous == filtered {
            add(items[Int(last)].hash)
        } else {
            for w in 0..<Self.filterWords { filter[w] = 0 }
            var i = Int(last)
            while i >= 0 { add(items[i].hash); i = Int(items[i].previous) }
        }
        filtered = last
    }

    private mutating func add(_ hash: UInt64) {
        let a = Int(hash & 4095), b = Int((hash >> 12) & 4095)
        filter[a >> 6] |= 1 << UInt64(a & 63)
        filter[b >> 6] |= 1 << UInt64(b & 63)
    }

    /// Whether `bytes[a ..< a + count]` and `bytes[b ..< b + count]` are equal.
    func equal(_ a: Int, _ b: Int, count: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buf in
            var k = 0
            while k < count {
                if buf[a + k] != buf[b + k] { return false }
                k += 1
            }
            return true
        }
    }

    /// What a byte just read means for an array of a language with an end (`DistinctValues`).
    enum Event {
        case none
        /// Inside a string: its text so far must begin some value not written yet.
        case prefix
        /// An item closed: the values left must reach `minItems`.
        case closed
        /// A separator: one more item must come, and enough values for `minItems`.
        case separator
    }

    /// The event of byte `b`, read at `p` (after `read`).
    @inline(__always)
    static func event(after b: UInt8, _ p: Position) -> Event {
        if p.inString { return .prefix }
        if b == quote { return .closed }
        if b == UInt8(ascii: ",") { return .separator }
        return .none
    }

    /// Whether an array of `list`'s values at `p` can still be finished with values not written yet
    /// (its items are values of the list, all different, so `p.count` of them are used).
    func feasible(_ list: DistinctValues, _ event: Event, _ p: Position, absentIsFeasible: Bool = false) -> Bool {
        let left = list.total - Int(p.count), needed = list.minimum - Int(p.count)
        switch event {
        case .none: return true
        case .closed: return left >= needed
        case .separator: return left >= max(1, needed)
        case .prefix:
            return feasiblePrefix(list, Int(p.stringStart), bytes.count, p, absentIsFeasible: absentIsFeasible)
        }
    }

    /// Whether the text `bytes[start ..< end]` begins some value of `list` not written yet in the open
    /// array at `p`.
    func feasiblePrefix(_ list: DistinctValues, _ start: Int, _ end: Int, _ p: Position, absentIsFeasible: Bool = false) -> Bool {
        let values = bytes.withUnsafeBufferPointer { buf in
            list.isCounted ? list.completions(of: buf, start, end) : list.range(beginningWith: buf, start, end).count
        }
        return values == 0 ? absentIsFeasible : unwritten(values, start, end, p)
    }

    /// Whether some of the `values` that begin with `bytes[start ..< end]` is not written yet in the open
    /// array at `p`.
    func unwritten(_ values: Int, _ start: Int, _ end: Int, _ p: Position) -> Bool {
        // At most `p.count` of them are written: most of the time fewer than there are.
        if values > Int(p.count) { return true }
        let length = end - start
        return bytes.withUnsafeBufferPointer { buf in
            // The written items that begin with the text so far use up values of the range.
            var used = 0, i = Int(p.lastItem)
            while i >= 0 {
                let item = items[i]
                if Int(item.end - item.start) >= length {
                    var k = 0
                    while k < length && buf[Int(item.start) + k] == buf[start + k] { k += 1 }
                    if k == length { used += 1 }
                }
                i = Int(item.previous)
            }
            return used < values
        }
    }

    /// `p` with the counts of what is stored now, to keep with a checkpoint.
    func saved(_ p: Position) -> Position {
        var q = p
        q.byteCount = Int32(bytes.count)
        q.itemCount = Int32(items.count)
        return q
    }

    /// Drops what was stored after `p` was saved.
    mutating func truncate(to p: Position) {
        while bytes.count > Int(p.byteCount) { bytes.removeLast() }
        while items.count > Int(p.itemCount) { items.removeLast() }
        if Int(filtered) >= items.count { forgetFilter() }
    }

    /// The filter holds nothing (a new array, a reset, a rollback past the filtered item).
    mutating func forgetFilter() {
        for w in 0..<Self.filterWords { filter[w] = 0 }
        filtered = -1
    }

    var byteCount: Int {
        bytes.capacity + items.capacity * MemoryLayout<Item>.stride + filter.count * 8 + marks.byteCount
            + canonical.scratch.capacity + canonical.members.capacity * MemoryLayout<CanonicalJSON.Member>.stride
    }
}
