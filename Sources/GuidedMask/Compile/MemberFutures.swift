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
    // Each table is filled one rule at a time, the first time a closure enters that rule (`prepare`):
    // a large schema has hundreds of member-set rules and a first mask visits one or two of them, so the
    // fixed points below were a tenth of compiling a Kubernetes schema's automaton when made for all.
    // The tables are class-backed (`ZeroedTable`) so filling one needs no mutable access to the struct,
    // whose copy `GrammarAutomaton`'s builder reads in its innermost loop.

    /// Per NFA state: bits of the member calls it can reach.
    private let members: ZeroedTable<UInt64>
    /// Per NFA state: the closing rule it can reach plus one (0: none), and per rule that rule's conditions.
    private let close: ZeroedTable<Int32>
    private let closeRequires: [UInt64]
    private let closeRequiresBeyond: [[Int16]]
    private let closeDependencies: [[MemberDependency]]
    private let closeMinimum: [Int]
    /// Per NFA state: it can reach something always usable (or several closing calls): never left out.
    private let other: ZeroedTable<Bool>
    /// Per NFA state of a member-set rule with counts (nil when no rule has counts): it can reach an
    /// undeclared member.
    private let undeclared: ZeroedTable<Bool>?
    /// Per NFA state (nil when no rule has counts): the member-set rule with counts it belongs to, plus one
    /// (0: none).
    private let counted: ZeroedTable<Int32>?
    private let countedRules: CountedRules
    /// Objects of more than 64 members (`MemberBitsBeyond`), else nil: per NFA state, its row in
    /// `beyondReach` plus one (0 outside such an object), and per row the member bits of 64 and above it
    /// reaches. The rows are laid out at init (a scan of the calls only), filled with their rule.
    private let beyondRow: ZeroedTable<Int32>?
    private let beyondReach: ZeroedTable<UInt64>?
    private let width: Int
    /// Per kept rule: its tables are filled.
    private let prepared: ZeroedTable<Bool>

    init(nfa: GrammarNFA) {
        let n = nfa.stateCount
        members = ZeroedTable(count: n)
        close = ZeroedTable(count: n)
        other = ZeroedTable(count: n)
        prepared = ZeroedTable(count: nfa.ruleStart.count)
        closeRequires = nfa.ruleRequires
        closeRequiresBeyond = nfa.ruleRequiresBeyond
        closeDependencies = nfa.ruleDependencies
        closeMinimum = nfa.ruleMinimum
        countedRules = nfa.countedRules
        width = nfa.beyondWords
        let counts = nfa.ruleCounts.contains(where: { $0 != nil })
        undeclared = counts ? ZeroedTable(count: n) : nil
        counted = counts ? ZeroedTable(count: n) : nil
        if width > 0 {
            let rows = ZeroedTable<Int32>(count: n)
            var used = 0
            for k in 0..<nfa.ruleStart.count where nfa.ruleTracks[k] {
                let (lo, hi) = Self.states(of: k, nfa)
                guard (lo..<hi).contains(where: { nfa.usableCall($0) && nfa.ruleMemberBit[Int(nfa.callee[$0])] >= 64 }) else { continue }
                for s in lo..<hi { rows[s] = Int32(used + s - lo + 1) }
                used += hi - lo
            }
            beyondRow = rows
            beyondReach = ZeroedTable(count: used * width)
        } else {
            beyondRow = nil
            beyondReach = nil
        }
    }

    /// A rule's states are numbered contiguously from its start, in rule order (`RuleFollow.ruleOf`).
    private static func states(of k: Int, _ nfa: GrammarNFA) -> (Int, Int) {
        let rules = nfa.ruleStart.count
        return (Int(nfa.ruleStart[k]), k + 1 < rules ? Int(nfa.ruleStart[k + 1]) : nfa.stateCount)
    }

    /// Fills the tables of member-set rule `k` if no closure has entered it before. Called with the
    /// builder's lock held, before any `canComplete` on the rule's states.
    @inline(__always)
    func prepare(rule k: Int, _ nfa: GrammarNFA) {
        if !prepared[k] { fill(rule: k, nfa) }
    }

    @inline(never)
    private func fill(rule k: Int, _ nfa: GrammarNFA) {
        prepared[k] = true
        let (lo, hi) = Self.states(of: k, nfa)
        let counts = nfa.ruleCounts[k] != nil
        if beyondRow != nil { reachBeyond(nfa, lo, hi) }
        for s in lo..<hi {
            other[s] = nfa.isFinal[s]
            if counts { counted![s] = Int32(k + 1) }
            guard nfa.usableCall(s) else { continue }
            let c = Int(nfa.callee[s])
            if nfa.ruleMemberBit[c] >= 64 {
                continue   // `reachBeyond`
            } else if nfa.ruleMemberBit[c] >= 0 {
                members[s] |= 1 << UInt64(nfa.ruleMemberBit[c])
            } else if nfa.closes(c) {
                merge(close: Int32(c), into: s)
            } else if counts && nfa.ruleCountsUndeclared[c] {
                undeclared![s] = true
            } else {
                other[s] = true
            }
        }
        // Backward to a fixed point: every value only grows, so a few passes settle it.
        var changed = true
        while changed {
            changed = false
            for s in (lo..<hi).reversed() where nfa.live[s] {
                var m = members[s], o = other[s], u = counts && undeclared![s]
                let c = close[s]
                func take(_ t: Int) {
                    guard nfa.live[t] else { return }
                    m |= members[t]
                    o = o || other[t]
                    if counts { u = u || undeclared![t] }
                    if close[t] != 0 { merge(close: close[t] - 1, into: s) }
                }
                for e in Int(nfa.epsilonStart[s])..<Int(nfa.epsilonStart[s + 1]) { take(Int(nfa.epsilonTargets[e])) }
                if nfa.label[s] == GrammarNFA.labelClasses { take(Int(nfa.target[s])) }
                if m != members[s] || o != other[s] || c != close[s] || (counts && u != undeclared![s]) {
                    members[s] = m
                    other[s] = other[s] || o
                    if counts { undeclared![s] = u }
                    changed = true
                }
            }
        }
    }

    /// The member bits of 64 and above that each state of one member-set rule (states `lo..<hi`) can
    /// reach before its next call, where the rule has such members: as `members` for the first word.
    private func reachBeyond(_ nfa: GrammarNFA, _ lo: Int, _ hi: Int) {
        guard let beyondRow, let beyondReach, beyondRow[lo] != 0 else { return }
        for s in lo..<hi where nfa.usableCall(s) {
            let bit = nfa.ruleMemberBit[Int(nfa.callee[s])]
            guard bit >= 64 else { continue }
            let (w, m) = MemberBitsBeyond.place(bit)
            beyondReach[Int(beyondRow[s] - 1) * width + w] |= m
        }
        var changed = true
        while changed {
            changed = false
            for s in (lo..<hi).reversed() where nfa.live[s] {
                let row = Int(beyondRow[s] - 1) * width
                func take(_ t: Int) {
                    guard nfa.live[t], t >= lo, t < hi else { return }
                    let from = Int(beyondRow[t] - 1) * width
                    for w in 0..<width where beyondReach[from + w] & ~beyondReach[row + w] != 0 {
                        beyondReach[row + w] |= beyondReach[from + w]
                        changed = true
                    }
                }
                for e in Int(nfa.epsilonStart[s])..<Int(nfa.epsilonStart[s + 1]) { take(Int(nfa.epsilonTargets[e])) }
                if nfa.label[s] == GrammarNFA.labelClasses { take(Int(nfa.target[s])) }
            }
        }
    }

    /// Records a reachable closing call; a second, other closing rule makes the state `other` (kept
    /// whatever is written: only ever too lenient about dead ends, never about what is accepted). The
    /// lowering makes one closing rule per condition, so another rule is another condition.
    private func merge(close rule: Int32, into s: Int) {
        if close[s] == 0 { close[s] = rule + 1 } else if close[s] != rule + 1 { other[s] = true }
    }

    /// True when NFA state `s` of a member-set rule can still complete once the members `written` (and
    /// `beyond`, those of bit 64 and above) are in.
    @inline(__always)
    func canComplete(_ s: Int, written: UInt64, beyond: UnsafeBufferPointer<UInt64>) -> Bool {
        if other[s] { return true }
        if let counted, counted[s] != 0 { return countedCanComplete(s, Int(counted[s] - 1), written: written) }
        if members[s] & ~written != 0 { return true }
        if let beyondRow, beyondRow[s] != 0, reachesUnwritten(Int(beyondRow[s] - 1), beyond) { return true }
        return closes(s, written: written, beyond: beyond)
    }

    private func reachesUnwritten(_ row: Int, _ beyond: UnsafeBufferPointer<UInt64>) -> Bool {
        let base = row * width
        for w in 0..<width where beyondReach![base + w] & ~(w < beyond.count ? beyond[w] : 0) != 0 { return true }
        return false
    }

    /// `canComplete` in a member-set rule with counts: a member not yet written or an undeclared member
    /// leads on only while the object can still close within its counts once it is written.
    private func countedCanComplete(_ s: Int, _ k: Int, written: UInt64) -> Bool {
        var open = members[s] & ~written
        while open != 0 {
            if countedRules.canClose(k, after: written | (open & (~open &+ 1))) { return true }
            open &= open &- 1
        }
        if undeclared![s], let after = countedRules.counts[k]!.addingUndeclared(written), countedRules.canClose(k, after: after) {
            return true
        }
        return closes(s, written: written, beyond: UnsafeBufferPointer(start: nil, count: 0))
    }

    @inline(__always)
    private func closes(_ s: Int, written: UInt64, beyond: UnsafeBufferPointer<UInt64>) -> Bool {
        guard close[s] != 0 else { return false }
        let rule = Int(close[s] - 1)
        return MemberDependency.allowed(written: written, requires: closeRequires[rule], dependencies: closeDependencies[rule])
            && (closeMinimum[rule] == 0 || MemberCounts.towardMinimum(written) >= closeMinimum[rule])
            && (closeRequiresBeyond[rule].isEmpty || MemberBitsBeyond.containsAll(closeRequiresBeyond[rule], in: beyond))
    }
}

/// The counts of the member-set rules (`GrammarRule.memberCounts`) with what their usable calls can
/// write, as `GrammarNFA` found them.
struct CountedRules {
    let counts: [MemberCounts?]
    let writable: [Int]
    let undeclared: [Bool]

    @inline(__always)
    func canClose(_ k: Int, after presence: UInt64) -> Bool {
        counts[k]!.canClose(after: presence, writable: writable[k], undeclared: undeclared[k])
    }
}
