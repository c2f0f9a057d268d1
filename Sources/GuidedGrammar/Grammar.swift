/// Index of a rule in a `Grammar`.
public struct RuleID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (a: RuleID, b: RuleID) -> Bool { a.index < b.index }
    public var description: String { "r\(index)" }
}

/// An expression over bytes: the body of a grammar rule.
///
/// Everything the front ends produce lowers to this: GBNF rules, regexes (Unicode classes become
/// alternatives of UTF-8 byte sequences), and JSON Schema. It is engine-agnostic on purpose: the mask
/// engine decides which parts become lexer automata and which stay context-free.
public enum GrammarExpr: Hashable, Sendable {
    /// The empty string (ε).
    case empty
    /// Matches nothing at all (∅): what an unsatisfiable constraint lowers to.
    case nothing
    /// These bytes, in order.
    case bytes([UInt8])
    /// One byte from the set. (Boxed: a 32-byte set inline would make every expression that size.)
    indirect case byteSet(ByteSet)
    /// Each part after the other.
    case sequence([GrammarExpr])
    /// Any one of the alternatives.
    case choice([GrammarExpr])
    /// `min` to `max` repetitions (`max == nil`: unbounded).
    indirect case `repeat`(GrammarExpr, min: Int, max: Int?)
    /// The body of another rule (recursion goes through rules).
    case rule(RuleID)
    /// One token of the vocabulary, read only as that token id: the same bytes spelled by other tokens
    /// do not match it, and the token itself is never read as text anywhere in the grammar (see
    /// `TokenReference`). Resolved against the vocabulary when the grammar is compiled.
    case token(TokenReference)
    /// `body`, within a budget of `maxTokens` tokens: once that many tokens have been accepted after the
    /// token that entered it, with the parse still inside `body`, the rest of `body` is cut and `then`
    /// must follow (a reasoning block that must close after its budget: `then` is its end marker).
    /// A `body` that ends by itself before the budget is spent skips `then`. The budget counts tokens,
    /// so it is enforced by the token matcher; at the byte level the language is `body`, or a prefix
    /// of a `body` text followed by `then`. `body` may not call recursive rules (see
    /// `GrammarCompileError.budgetBody`).
    indirect case tokenBudget(GrammarExpr, maxTokens: Int, then: GrammarExpr)
}

extension GrammarExpr {
    /// True when the expression refers to a rule anywhere (the rules themselves not followed).
    var callsRules: Bool {
        switch self {
        case .rule: return true
        case .sequence(let parts), .choice(let parts): return parts.contains { $0.callsRules }
        case .repeat(let inner, _, _): return inner.callsRules
        case .tokenBudget(let body, _, let then): return body.callsRules || then.callsRules
        case .empty, .nothing, .bytes, .byteSet, .token: return false
        }
    }

    /// A literal string as its UTF-8 bytes.
    public static func literal(_ s: String) -> GrammarExpr { .bytes(Array(s.utf8)) }
    public static func optional(_ e: GrammarExpr) -> GrammarExpr { .repeat(e, min: 0, max: 1) }
    public static func star(_ e: GrammarExpr) -> GrammarExpr { .repeat(e, min: 0, max: nil) }
    public static func plus(_ e: GrammarExpr) -> GrammarExpr { .repeat(e, min: 1, max: nil) }
    /// `e{min,max}`, with a repetition of a repetition folded where that is exact: `(x?)*`, `(x+)?`,
    /// `(x*)+` are `x*`, `(x+)+` is `x+`, `(x?)?` is `x?`, `(x{a,}){b,}` with b ≥ 1 is `x{a·b,}`, and `{1}`
    /// of anything is itself. Grammar text may stack operators (`x+++`, `x{1,}{2,}{2,}`, llama.cpp reads
    /// each as one more repetition); nested, each level doubled the compile's size estimate and made the
    /// grammar more ambiguous, which the reference recognizer pays for cubically.
    public static func repeated(_ e: GrammarExpr, min lo: Int, max hi: Int?) -> GrammarExpr {
        if lo == 1 && hi == 1 { return e }
        guard case .repeat(let inner, let a, let b) = e else { return .repeat(e, min: lo, max: hi) }
        if a == 1 && b == 1 { return .repeated(inner, min: lo, max: hi) }
        // Between lo ≥ 1 and hi (or unboundedly many) blocks of at least a copies are exactly at least a·lo
        // copies: k ≥ lo blocks hold at least a·lo, and a count m ≥ a·lo splits into lo − 1 blocks of a and
        // one of the rest. (Kept nested past the bound the grammar languages can write, so that an export
        // still reads back.)
        if b == nil, lo >= 1 {
            let (n, overflow) = a.multipliedReportingOverflow(by: lo)
            if !overflow && n <= maximumFoldedLowerBound { return .repeat(inner, min: n, max: nil) }
        }
        // Up to hi ≥ 1 blocks of x* or x+ are x*: no block, or one block of any size.
        if b == nil, a <= 1, lo == 0, hi.map({ $0 >= 1 }) ?? true { return .repeat(inner, min: 0, max: nil) }
        // Both of ?, * and +: the result allows zero exactly when either does, and more than one
        // exactly when either does.
        let simple: (Int, Int?) -> Bool = { m, n in (m == 0 && n == 1) || (m <= 1 && n == nil) }
        guard simple(a, b), simple(lo, hi) else { return .repeat(e, min: lo, max: hi) }
        let zero = a == 0 || lo == 0
        let many = b == nil || hi == nil
        return .repeat(inner, min: zero ? 0 : 1, max: many ? nil : 1)
    }
    /// The largest lower bound `repeated` folds into: the largest count GBNF, EBNF and Lark text may write.
    static let maximumFoldedLowerBound = 1_000_000

    /// One byte in `range`.
    public static func byteRange(_ range: ClosedRange<UInt8>) -> GrammarExpr { .byteSet(ByteSet(range: range)) }
}

/// A named rule.
public struct GrammarRule: Hashable, Sendable {
    public var name: String
    public var body: GrammarExpr
    /// A hint to the mask compiler: keep the rule as one called rule rather than inlining it into its
    /// callers. Its automaton states, and the token masks cached for them, are then its own, shared by
    /// every context that reaches it, even through a single reference (the undeclared member of a JSON
    /// object is referenced once, from the object's last state, but every earlier position whose members
    /// may all be absent reaches it; inlined, its states would be mixed into each position's). Never
    /// changes the language.
    public var shared: Bool
    /// Member sets (a member-set rule's direct calls, see `tracksMembers`): a rule with `memberBit` b ≥ 0
    /// may be called from such a rule only while member b is not yet written, and writes it. Bits 0-63 are
    /// an object's first word; an object of more members (`MemberSetRules.maximumMembers`) has more.
    public var memberBit: Int16 = -1
    /// A rule that the calling member-set rule may call only once every member of this mask is written.
    public var requiresMembers: UInt64 = 0
    /// Like `requiresMembers`, for member bits of 64 and above (ascending): the required members of an
    /// object of more than 64 members beyond its first word.
    public var requiresMembersBeyond: [Int16] = []
    /// A member-set rule: it remembers, per use, which `memberBit` rules it has called (an object whose
    /// members come in any order, each at most once). Its own calls of `memberBit` and `requiresMembers`
    /// rules obey them; nested uses of other rules have their own sets.
    public var tracksMembers: Bool = false
    /// Further conditions of a rule like `requiresMembers` (an object's closing `}`): for each, once its
    /// trigger member is written, all of its required members must be (`dependentRequired`).
    public var memberDependencies: [MemberDependency] = []
    /// A closing rule like `requiresMembers`: the members written must number at least this many, undeclared
    /// ones counting one at most (`minProperties`; see `MemberCounts.towardMinimum`).
    public var minimumMembers: Int = 0
    /// A member-set rule whose object has counts (`minProperties`, `maxProperties`, a finite number of
    /// undeclared members): a member is called only while the object can still end within them.
    public var memberCounts: MemberCounts? = nil
    /// An undeclared member: a member-set rule with `memberCounts` counts each call of this rule (other
    /// member-set rules ignore the attribute).
    public var countsAsUndeclared: Bool = false
    /// An array whose items must be pairwise distinct (`uniqueItems`), all of them JSON strings: the rule
    /// reads `[`, the items, their separators and whitespace, and `]`, and nothing else. The token matcher
    /// tracks the items of each such array and refuses an item whose text equals an earlier item's
    /// (strings are spelled in one canonical escaping, so equal text is equal value); a context-free
    /// grammar cannot say it. Always kept as a rule of its own.
    public var distinctStringItems: Bool = false
    /// For `distinctStringItems`: the items may be any JSON values (objects, numbers, arrays, strings),
    /// compared as values (numbers by value, objects regardless of member order and whitespace), each
    /// read up to where it completes. Set only where every prefix of an item has infinitely many
    /// completions of distinct values, so refusing a repeat never leaves a parse with nothing to write.
    public var distinctByValue: Bool = false
    /// For `distinctByValue`: the numbers among the items are integers, so `0` (and `-0`) has no other
    /// completion and the matcher decides it at that digit.
    public var distinctZeroIsDecided: Bool = false
    /// For `distinctStringItems`: nil where every prefix of an item has infinitely many completions, else
    /// every item the array may hold (their texts between the quotes, sorted by bytes), so the matcher
    /// can tell when the values left cannot finish the item or reach `distinctMinimum` items.
    public var distinctValues: [[UInt8]]? = nil
    /// For `distinctStringItems`, where the items' language has prefixes with finitely many completions
    /// but is too large to list: its content automaton (over the text between the quotes), from which
    /// the matcher counts the completions left.
    public var distinctLanguage: ByteDFA? = nil
    /// For `distinctStringItems` with `distinctValues` or `distinctLanguage`: the array's `minItems`.
    public var distinctMinimum: Int = 0
    /// A string whose length in code points is bounded beside its content language
    /// (`CountedLength`): the rule reads the opening quote, content the automaton accepts, and the
    /// closing quote; the rules its content calls carry the same value. The token matcher counts the
    /// code points and refuses what would leave no completion within the bounds. Always kept as a
    /// rule of its own.
    public var countedLength: CountedLength? = nil
    public init(name: String, body: GrammarExpr, shared: Bool = false) { self.name = name; self.body = body; self.shared = shared }

    /// Whether the rule carries any member-set attribute.
    public var hasMemberGuard: Bool {
        memberBit >= 0 || requiresMembers != 0 || !requiresMembersBeyond.isEmpty || tracksMembers || !memberDependencies.isEmpty || minimumMembers > 0
            || memberCounts != nil || countsAsUndeclared
    }

    /// Whether this closing rule requires member `bit` (`requiresMembers`, `requiresMembersBeyond`).
    public func requiresMember(_ bit: Int16) -> Bool {
        bit < 64 ? requiresMembers & (1 << UInt64(bit)) != 0 : requiresMembersBeyond.contains(bit)
    }

}

/// "Once member `trigger` is written, the members of `requires` must be" (bit masks of member bits).
public struct MemberDependency: Hashable, Sendable {
    public var trigger: UInt64
    public var requires: UInt64
    public init(trigger: UInt64, requires: UInt64) { self.trigger = trigger; self.requires = requires }

    /// `members` with, transitively, every member a member of it depends on.
    public static func closure(of members: UInt64, _ dependencies: [MemberDependency]) -> UInt64 {
        var all = members
        var grew = !dependencies.isEmpty
        while grew {
            grew = false
            for d in dependencies where all & d.trigger != 0 && all & d.requires != d.requires {
                all |= d.requires
                grew = true
            }
        }
        return all
    }

    /// Whether the members `written` meet `requires` and every dependency whose trigger is written.
    @inline(__always)
    public static func allowed(written: UInt64, requires: UInt64, dependencies: [MemberDependency]) -> Bool {
        guard written & requires == requires else { return false }
        for d in dependencies where written & d.trigger != 0 && written & d.requires != d.requires { return false }
        return true
    }
}

/// The counts of one member-set object (`GrammarRule.memberCounts`), and how its set of members written
/// (the automaton's presence word) holds them: declared members' bits below `undeclaredShift`, the number
/// of undeclared members written above it, saturated at `undeclaredCap`.
///
/// Undeclared members are counted, not named, so two of them may carry the same key: toward `maximum` and
/// `undeclaredLimit` every one counts (stricter, so sound), toward `minimum` they count as one at most (the
/// number of distinct keys that one or more surely carry), as in the other member orders.
public struct MemberCounts: Hashable, Sendable {
    /// `minProperties`.
    public var minimum: Int
    /// `maxProperties`.
    public var maximum: Int?
    /// At most this many undeclared members (`JSONSchemaCompiler.Options.maxUndeclaredProperties`).
    public var undeclaredLimit: Int?
    /// The required members' bits (the closing rule requires them too): an object that must still write
    /// them has fewer members to spare.
    public var required: UInt64
    /// The object's dependencies (the closing rule checks them too): a written member brings the members
    /// it depends on into what the object must have. The lowering keeps counts beside dependencies only
    /// where no two members depend on each other (see `canClose`).
    public var dependencies: [MemberDependency]

    public init(minimum: Int, maximum: Int?, undeclaredLimit: Int?, required: UInt64, dependencies: [MemberDependency] = []) {
        self.minimum = minimum; self.maximum = maximum; self.undeclaredLimit = undeclaredLimit; self.required = required
        self.dependencies = dependencies
    }

    public static let undeclaredShift: UInt64 = 56
    public static let declaredBits: UInt64 = (1 << undeclaredShift) - 1
    /// Declared members such an object may have (the bits below `undeclaredShift`).
    public static let maximumDeclared = Int(undeclaredShift)
    /// The largest bound kept exactly (the count field holds 255); larger objects keep other orders.
    public static let largestBound = 200

    /// Where the count of undeclared members stops: exact up to the bounds that read it, 1 when only
    /// `minimum` does.
    public var undeclaredCap: Int {
        guard undeclaredBounded else { return 1 }
        return Swift.max(1, Swift.min(maximum ?? .max, undeclaredLimit ?? .max, Self.largestBound))
    }
    private var undeclaredBounded: Bool { maximum != nil || undeclaredLimit != nil }

    @inline(__always) public static func declared(_ presence: UInt64) -> Int { (presence & declaredBits).nonzeroBitCount }
    @inline(__always) public static func undeclared(_ presence: UInt64) -> Int { Int(presence >> undeclaredShift) }
    /// The members written as `minimum` counts them.
    @inline(__always) public static func towardMinimum(_ presence: UInt64) -> Int {
        declared(presence) + Swift.min(undeclared(presence), 1)
    }

    /// `presence` with one more undeclared member, or nil where a bound forbids it.
    @inline(__always)
    public func addingUndeclared(_ presence: UInt64) -> UInt64? {
        if Self.undeclared(presence) < undeclaredCap { return presence + (1 << Self.undeclaredShift) }
        return undeclaredBounded ? nil : presence
    }

    /// Whether an object with the members `presence` written can still close within the counts, when
    /// `writable` declared members can be written in all (those written included) and undeclared ones
    /// can be too (`undeclared`). The object must have the members written, the required ones and,
    /// transitively, what those depend on; it can end with any number of declared members from those to
    /// `writable`, and with one more undeclared member where none is written yet. Any number: with no
    /// two members depending on each other, the members still free can be added one at a time, each
    /// after those it depends on, every set on the way meeting the dependencies (and the writable
    /// members meet them as a whole, `GrammarNFA.dropUnwritableClosings`).
    public func canClose(after presence: UInt64, writable: Int, undeclared: Bool) -> Bool {
        let u = Self.undeclared(presence)
        if let l = undeclaredLimit, u > l { return false }
        let must = MemberDependency.closure(of: presence & Self.declaredBits | required, dependencies).nonzeroBitCount
        for extra in 0...(undeclared && u == 0 && (undeclaredLimit ?? 1) >= 1 ? 1 : 0) {
            let low = Swift.max(must, minimum - Swift.min(u + extra, 1))
            let high = Swift.min(writable, (maximum ?? .max) - u - extra)
            if low <= high { return true }
        }
        return false
    }
}

/// A context-free grammar over bytes: rules whose bodies are `GrammarExpr`s, and a start rule.
///
/// Build one with `addRule`, or with `declareRule` + `define` when rules refer to each other.
public struct Grammar: Hashable, Sendable {
    public private(set) var rules: [GrammarRule] = []
    public var start: RuleID
    /// Known to name no token, have no token budget and exclude no token (`usesTokens` false), from a
    /// walk already made (`prunedToReachable`); cleared by every change to a body or to
    /// `excludedTokens`. A cache: not part of equality.
    var knownTokenFree = false

    /// An empty grammar whose start rule is declared (body `.nothing`) and must be defined.
    public init(startName: String = "root") {
        rules = [GrammarRule(name: startName, body: .nothing)]
        start = RuleID(0)
    }

    /// A grammar with a single start rule.
    public init(root: GrammarExpr, name: String = "root") {
        rules = [GrammarRule(name: name, body: root)]
        start = RuleID(0)
    }

    /// A grammar of `rules` whose start rule is the first (`prunedToReachable`).
    init(rules: [GrammarRule], excludedTokens: [TokenReference]) {
        self.rules = rules
        start = RuleID(0)
        self.excludedTokens = excludedTokens
    }

    /// Declares a rule to be defined later; its body is `.nothing` until then.
    public mutating func declareRule(name: String) -> RuleID {
        rules.append(GrammarRule(name: name, body: .nothing))
        return RuleID(rules.count - 1)
    }

    public mutating func define(_ id: RuleID, as body: GrammarExpr) {
        rules[id.index].body = body
        knownTokenFree = false
    }

    /// Adds a rule; `shared` is the mask compiler's hint (see `GrammarRule.shared`).
    @discardableResult
    public mutating func addRule(name: String, body: GrammarExpr, shared: Bool = false) -> RuleID {
        rules.append(GrammarRule(name: name, body: body, shared: shared))
        knownTokenFree = false
        return RuleID(rules.count - 1)
    }

    public subscript(id: RuleID) -> GrammarRule { rules[id.index] }

    /// Marks a rule `shared` (see `GrammarRule.shared`).
    public mutating func markShared(_ id: RuleID) { rules[id.index].shared = true }

    /// Sets the member-set attributes of a rule (see `GrammarRule.memberBit`); the others are cleared.
    public mutating func setMemberGuard(_ id: RuleID, bit: Int16 = -1, requires: UInt64 = 0, requiresBeyond: [Int16] = [],
                                        tracks: Bool = false, dependencies: [MemberDependency] = [], minimum: Int = 0,
                                        counts: MemberCounts? = nil, countsAsUndeclared: Bool = false) {
        rules[id.index].memberBit = bit
        rules[id.index].requiresMembers = requires
        rules[id.index].requiresMembersBeyond = requiresBeyond
        rules[id.index].tracksMembers = tracks
        rules[id.index].memberDependencies = dependencies
        rules[id.index].minimumMembers = minimum
        rules[id.index].memberCounts = counts
        rules[id.index].countsAsUndeclared = countsAsUndeclared
    }

    /// Gives rule `id` the member-set attributes of `other`, and its `distinctStringItems`.
    public mutating func setMemberGuard(_ id: RuleID, like other: GrammarRule) {
        setMemberGuard(id, bit: other.memberBit, requires: other.requiresMembers, requiresBeyond: other.requiresMembersBeyond,
                       tracks: other.tracksMembers,
                       dependencies: other.memberDependencies, minimum: other.minimumMembers,
                       counts: other.memberCounts, countsAsUndeclared: other.countsAsUndeclared)
        rules[id.index].distinctStringItems = other.distinctStringItems
        rules[id.index].distinctByValue = other.distinctByValue
        rules[id.index].distinctZeroIsDecided = other.distinctZeroIsDecided
        rules[id.index].distinctValues = other.distinctValues
        rules[id.index].distinctLanguage = other.distinctLanguage
        rules[id.index].distinctMinimum = other.distinctMinimum
    }

    /// Marks rule `id` as an array of distinct strings (see `GrammarRule.distinctStringItems`), of the
    /// listed `values` (nil: a language without end) and at least `minimum` items.
    public mutating func markDistinctStringItems(_ id: RuleID, values: [[UInt8]]? = nil, language: ByteDFA? = nil, minimum: Int = 0) {
        rules[id.index].distinctStringItems = true
        rules[id.index].distinctValues = values
        rules[id.index].distinctLanguage = language
        rules[id.index].distinctMinimum = minimum
    }

    /// Marks rule `id` as an array whose items, any JSON values, must be distinct values (see
    /// `GrammarRule.distinctByValue`).
    public mutating func markDistinctValueItems(_ id: RuleID, zeroIsDecided: Bool) {
        rules[id.index].distinctStringItems = true
        rules[id.index].distinctByValue = true
        rules[id.index].distinctZeroIsDecided = zeroIsDecided
    }

    /// Marks rule `id` as (part of) a string with a counted length (see `GrammarRule.countedLength`).
    public mutating func markCountedLength(_ id: RuleID, _ counted: CountedLength) {
        rules[id.index].countedLength = counted
    }

    public var startRule: GrammarRule { rules[start.index] }

    /// Tokens never read as text anywhere in the grammar (a chat model's `<|im_start|>` inside an
    /// answer), besides the tokens the grammar names with `.token`, which are excluded already. A
    /// token's bytes may still be spelled by other tokens where the grammar reads them as text.
    public var excludedTokens: [TokenReference] = [] {
        didSet { knownTokenFree = false }
    }

    public static func == (a: Grammar, b: Grammar) -> Bool {
        a.start == b.start && a.excludedTokens == b.excludedTokens && a.rules == b.rules
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rules)
        hasher.combine(start)
        hasher.combine(excludedTokens)
    }
}
