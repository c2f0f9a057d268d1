/// A string length bound kept as a counter beside a content automaton, instead of inside it.
///
/// `minLength`/`maxLength` intersected with a `pattern` or `format` make a product automaton of about
/// (content states) × (bound) states: a `maxLength` of 1,024 beside an e-mail format, or of 5,000 beside a
/// pattern of 100 counted words, passes any state limit. Kept apart, the content automaton stays as it
/// is, and the token matcher counts the characters of the string as it reads them
/// (`GrammarRule.countedLength`). Exactness needs more than counting: a string must never reach a
/// point from which its content language has no completion whose length lands within the bounds (a
/// mask that allowed it would lead into a dead end). This type answers that question in O(1):
/// `canFinish(state:count:)`.
///
/// Lengths count code points of the decoded string, as JSON Schema says. Contents are spelled in the
/// canonical escaping (`JSONText`): a code point is one UTF-8 sequence, or an escape `\x` / `\u00xx`.
/// The matcher counts a code point at its first byte (`CharReader`).
///
/// How: `succ(q)` is the set of states one whole code point leads to from a state `q` between code
/// points; `A[ℓ]` the set of states from which some accepted completion has exactly ℓ code points
/// (`A[0]` the accepting states, `A[ℓ] = {q : succ(q) ∩ A[ℓ-1] ≠ ∅}`). The sequence of sets is
/// eventually periodic; it is computed until a set repeats (or past `maximum`, beyond which no length
/// is asked), and `nearest[q][ℓ]` keeps the least length ≥ ℓ in which `q` can finish, so a question is
/// one lookup. A state inside a code point (after a lead byte, a backslash, part of `\u00xx`) finishes
/// as the states its code point can end in.
public final class CountedLength: Hashable, Sendable, CustomStringConvertible {
    /// The content language (between the quotes, without them).
    public let content: ByteDFA
    public let minimum: Int
    public let maximum: Int
    /// Layers before the period (`A[ℓ]` for ℓ < `preperiod` stands alone) and the period's length.
    let preperiod: Int
    let period: Int
    /// `nearest[q * width + ℓ]` for ℓ < `width` = `preperiod + period`: the least length ℓ' ≥ ℓ with q in
    /// `A[ℓ']` counted into the periodic tail (Int32.max: none).
    let nearest: [Int32]
    let width: Int
    /// `unsafe[c]`: how many counts below `c` leave some live state without a completion in bounds (a
    /// prefix sum over 0...maximum + 1); empty where that table would be too large to make.
    let unsafe: [Int32]

    /// Refusals of the construction: the tables would pass `maxCells`, a content state is reached both
    /// between code points and inside one (a minimized automaton may merge such states where their
    /// futures agree), so the count there would not say how many code points are left, or the maximum
    /// passes what the matcher's counter holds (`Int32`; a `maxLength` of 1e20 arrives clamped near
    /// `Int.max / 4`).
    public enum Refusal: Error, Sendable, CustomStringConvertible {
        case tooLarge(cells: Int), ambiguousCodePoints, maximumPastCounter(Int)

        public var description: String {
            switch self {
            case .tooLarge(let cells): return "its tables would pass \(cells) cells"
            case .ambiguousCodePoints: return "a content state lies both between and inside code points"
            case .maximumPastCounter(let maximum):
                return "the maximum \(maximum) passes the counter's \(Int32.max - 1)"
            }
        }
    }

    /// - Parameter maxCells: most entries of the table (content states × distinct lengths).
    public init(content: ByteDFA, minimum: Int, maximum: Int, maxCells: Int = 4_000_000) throws(Refusal) {
        self.content = content
        self.minimum = minimum
        self.maximum = maximum
        guard maximum < Int(Int32.max) else { throw .maximumPastCounter(maximum) }
        let n = content.stateCount
        guard let steps = CharSteps(content) else { throw .ambiguousCodePoints }
        // Layers A[0], A[1], … as bitsets, until one repeats or the lengths asked about are covered.
        let words = (n + 63) / 64
        var layers: [[UInt64]] = []
        var seen: [[UInt64]: Int] = [:]
        var layer = [UInt64](repeating: 0, count: words)
        for q in 0..<n where content.accepting[q] { layer[q >> 6] |= 1 << UInt64(q & 63) }
        let horizon = maximum + 2
        var pre = 0, per = 1
        while true {
            if let first = seen[layer] { pre = first; per = layers.count - first; break }
            if layers.count >= horizon {
                // No length past the horizon is ever asked: close the sequence with an empty period.
                pre = layers.count; per = 1
                layers.append([UInt64](repeating: 0, count: words))
                break
            }
            guard (layers.count + 1) * n <= maxCells else { throw .tooLarge(cells: (layers.count + 1) * n) }
            seen[layer] = layers.count
            layers.append(layer)
            var next = [UInt64](repeating: 0, count: words)
            for q in 0..<n where steps.isBoundary[q] {
                for t in steps.successors[q] where layer[Int(t) >> 6] & (1 << UInt64(Int(t) & 63)) != 0 {
                    next[q >> 6] |= 1 << UInt64(q & 63)
                    break
                }
            }
            layer = next
        }
        preperiod = pre
        period = per
        let w = pre + per
        width = w
        var table = [Int32](repeating: Int32.max, count: n * w)
        func member(_ q: Int, _ l: Int) -> Bool { layers[l][q >> 6] & (1 << UInt64(q & 63)) != 0 }
        for q in 0..<n where steps.isBoundary[q] {
            // Backwards through the period twice (a length in the period's first part finds its nearest in
            // the next round), then through the preperiod.
            var best = Int32.max
            for l in stride(from: w - 1, through: pre, by: -1) where member(q, l) { best = Int32(l + per) }
            for l in stride(from: w - 1, through: pre, by: -1) {
                if member(q, l) { best = Int32(l) }
                table[q * w + l] = best
            }
            for l in stride(from: pre - 1, through: 0, by: -1) {
                if member(q, l) { best = Int32(l) }
                table[q * w + l] = best
            }
        }
        // A state inside a code point: the best over the states that code point may end in.
        for q in 0..<n where !steps.isBoundary[q] {
            for t in steps.successors[q] {
                for l in 0..<w { table[q * w + l] = min(table[q * w + l], table[Int(t) * w + l]) }
            }
        }
        nearest = table
        // Counts at which every state that can finish at all can finish within the bounds: a mask there
        // need not read its tokens one by one (`lastSafeCount`).
        // From `minimum` on, a state finishes at count c exactly when c + (its shortest completion) ≤ maximum,
        // so only the counts below `minimum` are asked state by state.
        var prefix: [Int32] = []
        let live = (0..<n).filter { table[$0 * w] != Int32.max }
        // A table of `maximum + 2` counts, made only up to the cells' scale (a `maxLength` of two billion
        // reserved 8 GB here): without it every count is read token by token, as where it is empty.
        if n * (minimum + 1) <= 4 * maxCells && maximum + 2 <= 4 * maxCells {
            let deepest = live.map { Int(table[$0 * w]) }.max() ?? 0
            prefix.reserveCapacity(maximum + 2)
            prefix.append(0)
            var bad: Int32 = 0
            for c in 0...maximum {
                let ok = c < minimum ? live.allSatisfy { Self.finishes(table, w, pre, per, $0, c, minimum, maximum) } : c + deepest <= maximum
                if !ok { bad += 1 }
                prefix.append(bad)
            }
        }
        unsafe = prefix
    }

    private static func finishes(_ table: [Int32], _ w: Int, _ pre: Int, _ per: Int, _ q: Int, _ count: Int, _ lo: Int, _ hi: Int) -> Bool {
        let top = hi - count, bottom = max(0, lo - count)
        if top < bottom { return false }
        // The least length ≥ `bottom` in which `q` can finish; in the periodic tail, `bottom` is shifted
        // back into the first period and the answer forward again.
        let l: Int
        if bottom < w { l = table[q * w + bottom] == Int32.max ? Int.max : Int(table[q * w + bottom]) } else {
            let shift = ((bottom - pre) / per) * per
            let v = table[q * w + bottom - shift]
            l = v == Int32.max ? Int.max : Int(v) + shift
        }
        return l <= top
    }

    /// The last count of the run of counts from `count` on at which every content state that can finish at
    /// all can finish within the bounds (`count - 1` where `count` itself is not such a count, or none is
    /// known).
    public func lastSafeCount(from count: Int) -> Int {
        guard !unsafe.isEmpty, count >= 0, count <= maximum, unsafe[count + 1] == unsafe[count] else { return count - 1 }
        // The first count c ≥ count with unsafe[c + 1] > unsafe[count]: binary search (the table only grows).
        var lo = count + 1, hi = maximum + 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if unsafe[mid + 1] > unsafe[count] { hi = mid } else { lo = mid + 1 }
        }
        return lo - 1
    }


    /// Whether, from content state `state` with `count` code points written (the one begun counted),
    /// some completion accepted by the content language ends with a length within the bounds.
    public func canFinish(state: Int32, count: Int) -> Bool {
        guard state >= 0, Int(state) < content.stateCount else { return false }
        return Self.finishes(nearest, width, preperiod, period, Int(state), count, minimum, maximum)
    }

    /// Whether `count` is a length the bounds allow for a whole string.
    @inlinable public func allows(length count: Int) -> Bool { count >= minimum && count <= maximum }

    public static func == (a: CountedLength, b: CountedLength) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
    public var description: String { "CountedLength(\(minimum)...\(maximum), \(content.stateCount) states)" }
}

/// Reads canonical JSON string content one byte at a time and says where code points begin (`JSONText`:
/// raw UTF-8, `\x` escapes and `\u00xx`). Its state is one byte: 0 between code points, 1–3 continuation
/// bytes to come, 4 after a backslash, 5–8 hex digits to come (8 - state + 1 of them).
public enum CharReader {
    /// Reads `b` from `state`: the state after it, and whether `b` begins a code point.
    @inline(__always)
    public static func read(_ b: UInt8, _ state: inout UInt8) -> Bool {
        switch state {
        case 0:
            if b == 0x5C { state = 4 }
            else if b >= 0xF0 { state = 3 }
            else if b >= 0xE0 { state = 2 }
            else if b >= 0xC0 { state = 1 }
            return true
        case 1, 2, 3: state -= 1; return false
        case 4: state = b == UInt8(ascii: "u") ? 5 : 0; return false
        default: state = state == 8 ? 0 : state + 1; return false
        }
    }
}

/// For each content state: whether it lies between code points (reached from the start by whole code
/// points), and the states one whole code point leads to (between code points), or, inside a code
/// point, the states it may end in.
struct CharSteps {
    var isBoundary: [Bool]
    var successors: [[Int32]]

    /// Nil where a state is met both between code points and inside one, or inside at two reader states.
    init?(_ dfa: ByteDFA) {
        let n = dfa.stateCount
        isBoundary = [Bool](repeating: false, count: n)
        successors = [[Int32]](repeating: [], count: n)
        // Representative bytes: one per (content class, reader category), so a walk tries each distinct
        // behaviour once rather than 256 bytes.
        var reps: [UInt8] = []
        var keys = Set<Int>()
        for b in 0...255 {
            let category: Int
            switch b {
            case 0x5C: category = 0
            case 0x75: category = 1
            case 0x80...0xBF: category = 2
            case 0xC0...0xDF: category = 3
            case 0xE0...0xEF: category = 4
            case 0xF0...0xFF: category = 5
            default: category = 6
            }
            if keys.insert(Int(dfa.classOf[b]) * 8 + category).inserted { reps.append(UInt8(b)) }
        }
        // Between code points: the start, and every state a whole code point leads to from one.
        var inside = [UInt8](repeating: 0, count: n)   // reader state + 1 of a state inside a code point
        var queue: [Int32] = [0]
        isBoundary[0] = true
        var head = 0
        while head < queue.count {
            let q = queue[head]; head += 1
            var ends = Set<Int32>()
            // Depth-first over (state, reader state) until the code point ends.
            var stack: [(Int32, UInt8)] = [(q, 0)]
            var visited = Set<Int>()
            while let (s, r) = stack.popLast() {
                for b in reps {
                    var r2 = r
                    _ = CharReader.read(b, &r2)
                    let t = dfa.next(s, b)
                    if t < 0 { continue }
                    if r2 == 0 { ends.insert(t); continue }
                    if inside[Int(t)] == 0 { inside[Int(t)] = r2 + 1 } else if inside[Int(t)] != r2 + 1 { return nil }
                    if visited.insert(Int(t) * 16 + Int(r2)).inserted { stack.append((t, r2)) }
                }
            }
            successors[Int(q)] = ends.sorted()
            for t in successors[Int(q)] where !isBoundary[Int(t)] {
                isBoundary[Int(t)] = true
                queue.append(t)
            }
        }
        for q in 0..<n where isBoundary[q] && inside[q] != 0 { return nil }
        // Inside a code point: where it may end, from the reader state it is met in.
        for q in 0..<n where !isBoundary[q] && inside[q] != 0 {
            var ends = Set<Int32>()
            var stack: [(Int32, UInt8)] = [(Int32(q), inside[q] - 1)]
            var visited = Set<Int>()
            while let (s, r) = stack.popLast() {
                for b in reps {
                    var r2 = r
                    if CharReader.read(b, &r2) { continue }
                    let t = dfa.next(s, b)
                    if t < 0 { continue }
                    if r2 == 0 { ends.insert(t) } else if visited.insert(Int(t) * 16 + Int(r2)).inserted { stack.append((t, r2)) }
                }
            }
            successors[q] = ends.sorted()
        }
    }
}
