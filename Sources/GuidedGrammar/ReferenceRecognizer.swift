/// An exact, deliberately simple byte-at-a-time recognizer for any `Grammar`: the brute-force
/// reference that faster engines (the token-mask engine, the JSON Schema compiler) are tested against.
///
/// It lowers the grammar to plain BNF over byte-set terminals and runs an Earley parser over the
/// input bytes, with Aycock–Horspool handling of nullable nonterminals, so every context-free grammar
/// works: left recursion, ambiguity, ε-rules, `.nothing`, bounded repeats (expanded, up to
/// `maximumRepeatBound`) and unbounded ones. Before parsing, productions that use a symbol deriving
/// no finite string are removed; hence every live Earley item can still be completed, and
/// `allowedNextBytes` is exactly the set of bytes that keep the input a prefix of some sentence.
///
/// Value semantics: copying a recognizer forks it (the Earley sets are immutable and shared; the
/// first `feed` after a copy copies the array of set references, O(bytes so far)). Exactness comes
/// first: about 4 µs per byte on `Grammars/json.gbnf` in a release build. For many candidate strings
/// at once (a brute-force token mask), `viable(_:order:)` shares the work of common prefixes.
///
/// ```swift
/// var r = try ReferenceRecognizer(grammar)
/// if r.feed(Array("[1,2]".utf8)) && r.canTerminate { /* a sentence */ }
/// ```
public struct ReferenceRecognizer: Sendable {
    /// Largest bound of a `.repeat` (its `max`, or `min` when unbounded) that is expanded; larger
    /// repeats are refused with `ReferenceRecognizerError.repeatTooLarge`.
    public static let maximumRepeatBound = 100_000
    /// Largest number of BNF symbols the lowered grammar may have.
    public static let maximumSymbols = 4_000_000

    let bnf: ReferenceBNF
    /// One Earley set per input position (bytes consumed + 1).
    var chart: [EarleySet]

    public init(_ grammar: Grammar) throws(ReferenceRecognizerError) {
        try self.init(bnf: ReferenceBNFBuilder.build(grammar))
    }

    /// A recognizer whose verdict on strings of at most `maximumRepeatBound` bytes is exact, for grammars
    /// with larger upper bounds (`maxLength: 1000000`): such a `x{m,n}` is read as `x{m,}`. On a string
    /// of L < n bytes the two agree: a derivation with more than n copies has at most L non-empty ones, so
    /// dropping empty copies brings it to n copies, and still at least m. Prefix questions
    /// (`allowedNextBytes`) are not exact under this reading; `accepts` on such strings is.
    init(forMembershipOfShortStrings grammar: Grammar) throws(ReferenceRecognizerError) {
        try self.init(bnf: ReferenceBNFBuilder.build(grammar, relaxLargeUpperBounds: true))
    }

    private init(bnf: ReferenceBNF) {
        self.bnf = bnf
        let kernel = bnf.productionStarts[Int(bnf.augmentedStart)].map { EarleyItem(position: $0, origin: 0) }
        chart = [EarleySet.build(position: 0, kernel: kernel, chart: [], bnf: bnf)]
    }

    /// Number of bytes accepted so far.
    public var count: Int { chart.count - 1 }

    /// The input so far is a complete sentence of the grammar.
    public var canTerminate: Bool { chart[chart.count - 1].accepting }

    /// Exactly the bytes after which the input is still a prefix of some sentence.
    public var allowedNextBytes: ByteSet { chart[chart.count - 1].allowed }

    /// Exactly the token terminals (`.token(.id)`) after which the input is still a prefix of some
    /// sentence, in increasing id order.
    public var allowedNextTokens: [Int] { chart[chart.count - 1].allowedTokens.map(Int.init) }

    /// No sentence starts with the input: only possible before any byte, when the grammar's language
    /// is empty (`feed` never moves into a dead state).
    public var isDead: Bool { !canTerminate && allowedNextBytes.isEmpty && chart[chart.count - 1].allowedTokens.isEmpty }

    /// The input is a sentence and nothing may follow it.
    public var mustTerminate: Bool { canTerminate && allowedNextBytes.isEmpty && chart[chart.count - 1].allowedTokens.isEmpty }

    /// Consumes `byte` if the input stays a viable prefix; otherwise returns false and changes nothing.
    @discardableResult
    public mutating func feed(_ byte: UInt8) -> Bool {
        let last = chart[chart.count - 1]
        var kernel: [EarleyItem] = []
        for scan in last.scans where bnf.terminals[Int(scan.terminal)].contains(byte) {
            kernel.append(scan.advanced)
        }
        if kernel.isEmpty { return false }
        chart.append(EarleySet.build(position: Int32(chart.count), kernel: kernel, chart: chart, bnf: bnf))
        return true
    }

    /// Consumes the token terminal `token` (a `.token(.id)` of the grammar) if the input stays a viable
    /// prefix; otherwise returns false and changes nothing. A token's bytes are never read here: tokens
    /// the grammar reads as text are fed as their bytes.
    @discardableResult
    public mutating func feed(token: Int) -> Bool {
        let last = chart[chart.count - 1]
        var kernel: [EarleyItem] = []
        for scan in last.scans where bnf.terminalTokens[Int(scan.terminal)] == Int32(truncatingIfNeeded: token) {
            kernel.append(scan.advanced)
        }
        if kernel.isEmpty { return false }
        chart.append(EarleySet.build(position: Int32(chart.count), kernel: kernel, chart: chart, bnf: bnf))
        return true
    }

    /// Consumes all of `bytes`, or none of them: returns false (state unchanged) at the first rejected byte.
    @discardableResult
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> Bool {
        var copy = self
        for b in bytes where !copy.feed(b) { return false }
        self = copy
        return true
    }

    /// Forgets the last `n` bytes (at most `count`), returning to the state before them.
    public mutating func rollback(_ n: Int) {
        chart.removeLast(max(0, min(n, count)))
    }

    /// Back to the empty input.
    public mutating func reset() { rollback(count) }

    /// The input followed by `bytes` is still a prefix of some sentence (the recognizer is unchanged):
    /// what a brute-force token mask asks for each token's bytes.
    public func canFeed(_ bytes: some Sequence<UInt8>) -> Bool {
        var copy = self
        return copy.feed(bytes)
    }

    /// The grammar's language contains exactly `bytes`.
    public func accepts(_ bytes: some Sequence<UInt8>) -> Bool {
        var copy = self
        return copy.feed(bytes) && copy.canTerminate
    }

    /// `accepts` for the UTF-8 bytes of `text`.
    public func accepts(_ text: String) -> Bool { accepts(Array(text.utf8)) }
}

/// An Earley item: the dot's position in `ReferenceBNF.symbols` and the set where the production started.
struct EarleyItem: Hashable, Sendable {
    var position: Int32
    var origin: Int32
}

/// One Earley set, immutable once built (so recognizer copies share it).
final class EarleySet: Sendable {
    struct Scan: Sendable {
        /// The terminal after the dot.
        let terminal: Int32
        /// The item with the dot moved over it.
        let advanced: EarleyItem
    }

    struct Waiter: Sendable {
        let nonterminal: Int32
        /// The item with the dot moved over `nonterminal`.
        let advanced: EarleyItem
    }

    /// The items of this set with the dot before a nonterminal, already advanced over it, sorted by
    /// nonterminal (a flat array searched by bisection: cheaper to build than a dictionary).
    let waiting: [Waiter]
    let scans: [Scan]
    let allowed: ByteSet
    /// Token terminals some scan reads, sorted, without repeats.
    let allowedTokens: [Int32]
    let accepting: Bool

    init(waiting: [Waiter], scans: [Scan], allowed: ByteSet, allowedTokens: [Int32], accepting: Bool) {
        self.waiting = waiting
        self.scans = scans
        self.allowed = allowed
        self.allowedTokens = allowedTokens
        self.accepting = accepting
    }

    /// The index range of `waiting` whose nonterminal is `a`.
    func waiters(for a: Int32) -> Range<Int> {
        var lo = 0, hi = waiting.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if waiting[mid].nonterminal < a { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < waiting.count && waiting[end].nonterminal == a { end += 1 }
        return lo..<end
    }

    /// Closes `kernel` under prediction and completion (Aycock–Horspool: predicting a nullable
    /// nonterminal also moves the dot over it, so completions of ε-derivations in this very set need
    /// no revisiting, and only finished sets are ever asked for their waiting items).
    static func build(position k: Int32, kernel: [EarleyItem], chart: [EarleySet], bnf: ReferenceBNF) -> EarleySet {
        var scratch = EarleyScratch()
        return build(position: k, kernel: kernel, chart: chart, bnf: bnf, scratch: &scratch)
    }

    /// `build` reusing the caller's scratch buffers (for walks that build many sets).
    static func build(position k: Int32, kernel: [EarleyItem], chart: [EarleySet], bnf: ReferenceBNF,
                      scratch: inout EarleyScratch) -> EarleySet {
        scratch.seen.removeAll()
        scratch.work.removeAll(keepingCapacity: true)
        var waiting: [Waiter] = []
        var scans: [Scan] = []
        var allowed = ByteSet()
        var tokens: [Int32] = []
        var accepting = false

        for item in kernel where scratch.seen.insert(item) { scratch.work.append(item) }

        while let item = scratch.work.popLast() {
            scratch.processed &+= 1
            switch bnf.symbols[Int(item.position)] {
            case .terminal(let t):
                scans.append(Scan(terminal: t, advanced: EarleyItem(position: item.position + 1, origin: item.origin)))
                allowed = allowed.union(bnf.terminals[Int(t)])
                if bnf.terminalTokens[Int(t)] >= 0 { tokens.append(bnf.terminalTokens[Int(t)]) }
            case .nonterminal(let b):
                let advanced = EarleyItem(position: item.position + 1, origin: item.origin)
                waiting.append(Waiter(nonterminal: b, advanced: advanced))
                // A prediction is recorded as the pseudo-item (−1 − b, k), distinct from real items.
                if scratch.seen.insert(EarleyItem(position: -1 - b, origin: k)) {
                    for start in bnf.productionStarts[Int(b)] {
                        let predicted = EarleyItem(position: start, origin: k)
                        if scratch.seen.insert(predicted) { scratch.work.append(predicted) }
                    }
                }
                if bnf.nullable[Int(b)], scratch.seen.insert(advanced) { scratch.work.append(advanced) }
            case .end(let a):
                if a == bnf.augmentedStart { accepting = true }
                // Origin k means `a` derived ε here: `a` is nullable, so every item waiting on it in this
                // set was (or will be) advanced when it was added.
                if item.origin != k {
                    let origin = chart[Int(item.origin)]
                    for w in origin.waiters(for: a) {
                        let next = origin.waiting[w].advanced
                        if scratch.seen.insert(next) { scratch.work.append(next) }
                    }
                }
            }
        }
        waiting.sort { $0.nonterminal < $1.nonterminal }
        if tokens.count > 1 { tokens = Array(Set(tokens)).sorted() }
        return EarleySet(waiting: waiting, scans: scans, allowed: allowed, allowedTokens: tokens, accepting: accepting)
    }
}

/// Buffers `EarleySet.build` needs only while it runs.
struct EarleyScratch {
    var seen = EarleyItemTable()
    var work: [EarleyItem] = []
    /// Items taken from `work` over every build with this scratch: the work a bounded walk counts.
    var processed = 0
}

/// An open-addressing hash set of Earley items (a Swift `Set` costs several times more here).
struct EarleyItemTable {
    private var slots = [UInt64](repeating: 0, count: 64)
    private var count = 0

    /// Empties the table, keeping its storage.
    mutating func removeAll() {
        if count == 0 { return }
        for i in slots.indices { slots[i] = 0 }
        count = 0
    }

    /// Inserts `item`; returns false if it was already there.
    mutating func insert(_ item: EarleyItem) -> Bool {
        // +1 on each half keeps every key non-zero (0 marks an empty slot); positions may be negative.
        let key = (UInt64(UInt32(bitPattern: item.position &+ 1)) << 32) | UInt64(UInt32(bitPattern: item.origin &+ 1))
        if 2 * (count + 1) > slots.count { grow() }
        let mask = slots.count - 1
        var h = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while true {
            let s = slots[h]
            if s == key { return false }
            if s == 0 { slots[h] = key; count += 1; return true }
            h = (h + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for key in old where key != 0 {
            var h = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while slots[h] != 0 { h = (h + 1) & mask }
            slots[h] = key
        }
    }
}
