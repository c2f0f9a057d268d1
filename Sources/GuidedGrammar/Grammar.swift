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
    /// may be called from such a rule only while member b is not yet written, and writes it.
    public var memberBit: Int8 = -1
    /// A rule that the calling member-set rule may call only once every member of this mask is written.
    public var requiresMembers: UInt64 = 0
    /// A member-set rule: it remembers, per use, which `memberBit` rules it has called (an object whose
    /// members come in any order, each at most once). Its own calls of `memberBit` and `requiresMembers`
    /// rules obey them; nested uses of other rules have their own sets.
    public var tracksMembers: Bool = false
    /// Further conditions of a rule like `requiresMembers` (an object's closing `}`): for each, once its
    /// trigger member is written, all of its required members must be (`dependentRequired`).
    public var memberDependencies: [MemberDependency] = []
    public init(name: String, body: GrammarExpr, shared: Bool = false) { self.name = name; self.body = body; self.shared = shared }

    /// Whether the rule carries any member-set attribute.
    public var hasMemberGuard: Bool { memberBit >= 0 || requiresMembers != 0 || tracksMembers || !memberDependencies.isEmpty }

}

/// "Once member `trigger` is written, the members of `requires` must be" (bit masks of member bits).
public struct MemberDependency: Hashable, Sendable {
    public var trigger: UInt64
    public var requires: UInt64
    public init(trigger: UInt64, requires: UInt64) { self.trigger = trigger; self.requires = requires }

    /// Whether the members `written` meet `requires` and every dependency whose trigger is written.
    @inline(__always)
    public static func allowed(written: UInt64, requires: UInt64, dependencies: [MemberDependency]) -> Bool {
        guard written & requires == requires else { return false }
        for d in dependencies where written & d.trigger != 0 && written & d.requires != d.requires { return false }
        return true
    }
}

/// A context-free grammar over bytes: rules whose bodies are `GrammarExpr`s, and a start rule.
///
/// Build one with `addRule`, or with `declareRule` + `define` when rules refer to each other.
public struct Grammar: Hashable, Sendable {
    public private(set) var rules: [GrammarRule] = []
    public var start: RuleID

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

    /// Declares a rule to be defined later; its body is `.nothing` until then.
    public mutating func declareRule(name: String) -> RuleID {
        rules.append(GrammarRule(name: name, body: .nothing))
        return RuleID(rules.count - 1)
    }

    public mutating func define(_ id: RuleID, as body: GrammarExpr) {
        rules[id.index].body = body
    }

    /// Adds a rule; `shared` is the mask compiler's hint (see `GrammarRule.shared`).
    @discardableResult
    public mutating func addRule(name: String, body: GrammarExpr, shared: Bool = false) -> RuleID {
        rules.append(GrammarRule(name: name, body: body, shared: shared))
        return RuleID(rules.count - 1)
    }

    public subscript(id: RuleID) -> GrammarRule { rules[id.index] }

    /// Marks a rule `shared` (see `GrammarRule.shared`).
    public mutating func markShared(_ id: RuleID) { rules[id.index].shared = true }

    /// Sets the member-set attributes of a rule (see `GrammarRule.memberBit`).
    public mutating func setMemberGuard(_ id: RuleID, bit: Int8 = -1, requires: UInt64 = 0, tracks: Bool = false,
                                        dependencies: [MemberDependency] = []) {
        rules[id.index].memberBit = bit
        rules[id.index].requiresMembers = requires
        rules[id.index].tracksMembers = tracks
        rules[id.index].memberDependencies = dependencies
    }

    public var startRule: GrammarRule { rules[start.index] }

    /// Tokens never read as text anywhere in the grammar (a chat model's `<|im_start|>` inside an
    /// answer), besides the tokens the grammar names with `.token`, which are excluded already. A
    /// token's bytes may still be spelled by other tokens where the grammar reads them as text.
    public var excludedTokens: [TokenReference] = []
}
