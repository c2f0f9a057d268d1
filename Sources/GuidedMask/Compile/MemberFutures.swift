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
    private let closeRequiresBeyond: [[Int16]]
    private let closeDependencies: [[MemberDependency]]
    private let closeMinimum: [Int]
    /// Per NFA state: it can reach something always usable (or several closing calls): never left out.
    private(set) var other: [Bool]
    /// Per NFA state of a member-set rule with counts (else empty): it can reach an undeclared member.
    private(set) var undeclared: [Bool] = []
    /// Per NFA state (empty when no rule has counts): the member-set rule with counts it belongs to, or -1.
    private(set) var counted: [Int32] = []
    private let countedRules: CountedRules
    /// Objects of more than 64 members (`MemberBitsBeyond`), else empty: per NFA state, its row in
    /// `beyondReach` (-1 outside such an object), and per row the member bits of 64 and above it reaches.
    private(set) var beyondRow: [Int32] = []
    private(set) var beyondReach: [UInt64] = []
    private let width: Int

    init(nfa: GrammarNFA) {
        let n = nfa.stateCount
        members = [UInt64](repeating: 0, count: n)
        close = [Int32](repeating: -1, count: n)
        closeRequires = nfa.ruleRequires
        closeRequiresBeyond = nfa.ruleRequiresBeyond
        width = nfa.beyondWords
        if width > 0 { beyondRow = [Int32](repeating: -1, count: n) }
        closeDependencies = nfa.ruleDependencies
        closeMinimum = nfa.ruleMinimum
        hasClose = [Bool](repeating: false, count: n)
        other = [Bool](repeating: true, count: n)
        countedRules = nfa.countedRules
        if nfa.ruleCounts.contains(where: { $0 != nil }) {
            undeclared = [Bool](repeating: false, count: n)
            counted = [Int32](repeating: -1, count: n)
        }
        // A rule's states are numbered contiguously from its start, in rule order (`RuleFollow.ruleOf`).
        let rules = nfa.ruleStart.count
        for k in 0..<rules where nfa.ruleTracks[k] {
            let lo = Int(nfa.ruleStart[k])
            let hi = k + 1 < rules ? Int(nfa.ruleStart[k + 1]) : n
            let counts = nfa.ruleCounts[k] != nil
            if width > 0 { reachBeyond(nfa, lo, hi) }
            for s in lo..<hi {
                other[s] = nfa.isFinal[s]
                if counts { counted[s] = Int32(k) }
                guard nfa.usableCall(s) else { continue }
                let c = Int(nfa.callee[s])
                if nfa.ruleMemberBit[c] >= 64 {
                    continue   // `reachBeyond`
                } else if nfa.ruleMemberBit[c] >= 0 {
                    members[s] |= 1 << UInt64(nfa.ruleMemberBit[c])
                } else if nfa.closes(c) {
                    merge(close: Int32(c), into: s)
                } else if counts && nfa.ruleCountsUndeclared[c] {
                    undeclared[s] = true
                } else {
                    other[s] = true
                }
            }
            // Backward to a fixed point: every value only grows, so a few passes settle it.
            var changed = true
            while changed {
                changed = false
                for s in (lo..<hi).reversed() where nfa.live[s] {
                    var m = members[s], o = other[s], u = counts && undeclared[s]
                    let c = close[s], h = hasClose[s]
                    func take(_ t: Int) {
                        guard nfa.live[t] else { return }
                        m |= members[t]
                        o = o || other[t]
                        if counts { u = u || undeclared[t] }
                        if hasClose[t] { merge(close: close[t], into: s) }
                    }
                    for e in Int(nfa.epsilonStart[s])..<Int(nfa.epsilonStart[s + 1]) { take(Int(nfa.epsilonTargets[e])) }
                    if nfa.label[s] == GrammarNFA.labelClasses { take(Int(nfa.target[s])) }
                    if m != members[s] || o != other[s] || c != close[s] || h != hasClose[s] || (counts && u != undeclared[s]) {
                        members[s] = m
                        other[s] = other[s] || o
                        if counts { undeclared[s] = u }
                        changed = true
                    }
                }
            }
        }
    }

    /// The member bits of 64 and above that each state of one member-set rule (states `lo..<hi`) can
    /// reach before its next call, where the rule has such members: as `members` for the first word.
    private mutating func reachBeyond(_ nfa: GrammarNFA, _ lo: Int, _ hi: Int) {
        guard (lo..<hi).contains(where: { nfa.usableCall($0) && nfa.ruleMemberBit[Int(nfa.callee[$0])] >= 64 }) else { return }
        let base = beyondReach.count / width
        beyondReach += [UInt64](repeating: 0, count: (hi - lo) * width)
        for s in lo..<hi { beyondRow[s] = Int32(base + s - lo) }
        for s in lo..<hi where nfa.usableCall(s) {
            let bit = nfa.ruleMemberBit[Int(nfa.callee[s])]
            guard bit >= 64 else { continue }
            let (w, m) = MemberBitsBeyond.place(bit)
            beyondReach[Int(beyondRow[s]) * width + w] |= m
        }
        var changed = true
        while changed {
            changed = false
            for s in (lo..<hi).reversed() where nfa.live[s] {
                let row = Int(beyondRow[s]) * width
                func take(_ t: Int) {
                    guard nfa.live[t], t >= lo, t < hi else { return }
                    let from = Int(beyondRow[t]) * width
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
    private mutating func merge(close rule: Int32, into s: Int) {
        if !hasClose[s] { hasClose[s] = true; close[s] = rule } else if close[s] != rule { other[s] = true }
    }

    /// True when NFA state `s` of a member-set rule can still complete once the members `written` (and
    /// `beyond`, those of bit 64 and above) are in.
    @inline(__always)
    func canComplete(_ s: Int, written: UInt64, beyond: UnsafeBufferPointer<UInt64>) -> Bool {
        if other[s] { return true }
        if !counted.isEmpty && counted[s] >= 0 { return countedCanComplete(s, Int(counted[s]), written: written) }
        if members[s] & ~written != 0 { return true }
        if !beyondRow.isEmpty && beyondRow[s] >= 0 && reachesUnwritten(Int(beyondRow[s]), beyond) { return true }
        return closes(s, written: written, beyond: beyond)
    }

    private func reachesUnwritten(_ row: Int, _ beyond: UnsafeBufferPointer<UInt64>) -> Bool {
        let base = row * width
        for w in 0..<width where beyondReach[base + w] & ~(w < beyond.count ? beyond[w] : 0) != 0 { return true }
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
        if undeclared[s], let after = countedRules.counts[k]!.addingUndeclared(written), countedRules.canClose(k, after: after) {
            return true
        }
        return closes(s, written: written, beyond: UnsafeBufferPointer(start: nil, count: 0))
    }

    @inline(__always)
    private func closes(_ s: Int, written: UInt64, beyond: UnsafeBufferPointer<UInt64>) -> Bool {
        guard hasClose[s] else { return false }
        let rule = Int(close[s])
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
