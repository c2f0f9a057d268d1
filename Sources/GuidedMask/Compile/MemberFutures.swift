import GuidedGrammar

/// What each NFA state of a member-set rule (`GrammarRule.tracksMembers`) can reach before its next
/// call: the member calls (their bits), the closing call (the members it requires), or anything else
/// (an undeclared member, the rule's end). A state whose every way on is a member already written, or a
/// closing call whose members are not all written, cannot complete: `GrammarAutomaton` leaves such
/// states out of its sets, so no token is allowed into a dead end.
///
/// Without this, the name of a member already written stayed readable up to its last byte, a `,` was
/// allowed after the last member of an object that admits no undeclared member, and a line break
/// (which only the whitespace before `}` admits) was allowed while required members were missing.
struct MemberFutures {
    /// Per NFA state: bits of the member calls it can reach.
    private(set) var members: [UInt64]
    /// Per NFA state: the closing rule it can reach (valid with `hasClose`), and that rule's conditions.
    private(set) var close: [Int32]
    private(set) var hasClose: [Bool]
    private let closeRequires: [UInt64]
    private let closeDependencies: [[MemberDependency]]
    /// Per NFA state: it can reach something always usable (or several closing calls): never left out.
    private(set) var other: [Bool]

    init(nfa: GrammarNFA) {
        let n = nfa.stateCount
        members = [UInt64](repeating: 0, count: n)
        close = [Int32](repeating: -1, count: n)
        closeRequires = nfa.ruleRequires
        closeDependencies = nfa.ruleDependencies
        hasClose = [Bool](repeating: false, count: n)
        other = [Bool](repeating: true, count: n)
        // A rule's states are numbered contiguously from its start, in rule order (`RuleFollow.ruleOf`).
        let rules = nfa.ruleStart.count
        for k in 0..<rules where nfa.ruleTracks[k] {
            let lo = Int(nfa.ruleStart[k])
            let hi = k + 1 < rules ? Int(nfa.ruleStart[k + 1]) : n
            for s in lo..<hi {
                other[s] = nfa.isFinal[s]
                guard nfa.usableCall(s) else { continue }
                let c = Int(nfa.callee[s])
                if nfa.ruleMemberBit[c] >= 0 {
                    members[s] |= 1 << UInt64(nfa.ruleMemberBit[c])
                } else if nfa.closes(c) {
                    merge(close: Int32(c), into: s)
                } else {
                    other[s] = true
                }
            }
            // Backward to a fixed point: every value only grows, so a few passes settle it.
            var changed = true
            while changed {
                changed = false
                for s in (lo..<hi).reversed() where nfa.live[s] {
                    var m = members[s], o = other[s]
                    let c = close[s], h = hasClose[s]
                    func take(_ t: Int) {
                        guard nfa.live[t] else { return }
                        m |= members[t]
                        o = o || other[t]
                        if hasClose[t] { merge(close: close[t], into: s) }
                    }
                    for e in Int(nfa.epsilonStart[s])..<Int(nfa.epsilonStart[s + 1]) { take(Int(nfa.epsilonTargets[e])) }
                    if nfa.label[s] == GrammarNFA.labelClasses { take(Int(nfa.target[s])) }
                    if m != members[s] || o != other[s] || c != close[s] || h != hasClose[s] {
                        members[s] = m
                        other[s] = other[s] || o
                        changed = true
                    }
                }
            }
        }
    }

    /// Records a reachable closing call; a second, other closing rule makes the state `other` (kept
    /// whatever is written: only ever too lenient about dead ends, never about what is accepted). The
    /// lowering makes one closing rule per condition, so another rule is another condition.
    private mutating func merge(close rule: Int32, into s: Int) {
        if !hasClose[s] { hasClose[s] = true; close[s] = rule } else if close[s] != rule { other[s] = true }
    }

    /// True when NFA state `s` of a member-set rule can still complete once the members `written` are in.
    @inline(__always)
    func canComplete(_ s: Int, written: UInt64) -> Bool {
        guard !other[s], members[s] & ~written == 0 else { return true }
        guard hasClose[s] else { return false }
        let rule = Int(close[s])
        return MemberDependency.allowed(written: written, requires: closeRequires[rule], dependencies: closeDependencies[rule])
    }
}
