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
/// Value semantics: copying a recognizer forks it (the Earley sets are immutable and shared).
/// Exactness comes first; it costs a few microseconds per byte on small grammars.
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
        bnf = try ReferenceBNFBuilder.build(grammar)
        let kernel = bnf.productionStarts[Int(bnf.augmentedStart)].map { EarleyItem(position: $0, origin: 0) }
        chart = [EarleySet.build(position: 0, kernel: kernel, chart: [], bnf: bnf)]
    }

    /// Number of bytes accepted so far.
    public var count: Int { chart.count - 1 }

    /// The input so far is a complete sentence of the grammar.
    public var canTerminate: Bool { chart[chart.count - 1].accepting }

    /// Exactly the bytes after which the input is still a prefix of some sentence.
    public var allowedNextBytes: ByteSet { chart[chart.count - 1].allowed }

    /// No sentence starts with the input: only possible before any byte, when the grammar's language
    /// is empty (`feed` never moves into a dead state).
    public var isDead: Bool { !canTerminate && allowedNextBytes.isEmpty }

    /// The input is a sentence and nothing may follow it.
    public var mustTerminate: Bool { canTerminate && allowedNextBytes.isEmpty }

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

    /// Consumes all of `bytes`, or none of them: returns false (state unchanged) at the first rejected byte.
    @discardableResult
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> Bool {
        var copy = self
        for b in bytes where !copy.feed(b) { return false }
        self = copy
        return true
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

    /// Per nonterminal B: the items of this set with the dot before B, already advanced over B.
    let waiting: [Int32: [EarleyItem]]
    let scans: [Scan]
    let allowed: ByteSet
    let accepting: Bool

    init(waiting: [Int32: [EarleyItem]], scans: [Scan], allowed: ByteSet, accepting: Bool) {
        self.waiting = waiting
        self.scans = scans
        self.allowed = allowed
        self.accepting = accepting
    }

    /// Closes `kernel` under prediction and completion (Aycock–Horspool: predicting a nullable
    /// nonterminal also moves the dot over it, so completions of ε-derivations in this very set need
    /// no revisiting).
    static func build(position k: Int32, kernel: [EarleyItem], chart: [EarleySet], bnf: ReferenceBNF) -> EarleySet {
        var seen = Set<EarleyItem>()
        var work: [EarleyItem] = []
        var waiting: [Int32: [EarleyItem]] = [:]
        var predicted = Set<Int32>()
        var scans: [Scan] = []
        var allowed = ByteSet()
        var accepting = false

        func add(_ item: EarleyItem) {
            if seen.insert(item).inserted { work.append(item) }
        }
        for item in kernel { add(item) }

        while let item = work.popLast() {
            switch bnf.symbols[Int(item.position)] {
            case .terminal(let t):
                scans.append(Scan(terminal: t, advanced: EarleyItem(position: item.position + 1, origin: item.origin)))
                allowed = allowed.union(bnf.terminals[Int(t)])
            case .nonterminal(let b):
                let advanced = EarleyItem(position: item.position + 1, origin: item.origin)
                waiting[b, default: []].append(advanced)
                if predicted.insert(b).inserted {
                    for start in bnf.productionStarts[Int(b)] { add(EarleyItem(position: start, origin: k)) }
                }
                if bnf.nullable[Int(b)] { add(advanced) }
            case .end(let a):
                if a == bnf.augmentedStart { accepting = true }
                // Origin k means `a` derived ε here: `a` is nullable, so every item waiting on it in this
                // set was (or will be) advanced when it was added.
                if item.origin != k, let waiters = chart[Int(item.origin)].waiting[a] {
                    for w in waiters { add(w) }
                }
            }
        }
        return EarleySet(waiting: waiting, scans: scans, allowed: allowed, accepting: accepting)
    }
}
