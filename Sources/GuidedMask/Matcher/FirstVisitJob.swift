import GuidedSync

/// Part of a token trie to walk on its own: the subtrees of nodes `lower..<upper`, side by side, and
/// `parent`, the first-level node they hang below (-1 when they are first-level themselves).
struct TriePart {
    var view: Int
    var lower: Int
    var upper: Int
    var parent: Int = -1
}

extension TriePart {
    /// Splits trie `v` of `plan` into parts of about `target` nodes to walk, in trie order. A first-level
    /// subtree the state rejects at its first byte costs one node; a live one larger than `target`
    /// becomes a part of its own node (whose token, and what the walk does where the node is not live,
    /// are that part's) and parts of its children.
    static func split(_ plan: EntryPlan, view v: Int, target: Int, _ t: AutomatonTables) -> [TriePart] {
        let trie = plan.trie(v, t)
        var parts: [TriePart] = []
        var start = 0, weight = 0
        var i = 0
        while i < trie.count {
            let node = trie.nodes[i], size = node.subtreeSize
            let live = t.target(plan.state, Int(t.classOf[Int(node.byte)])) >= 0
            if live && size > target {
                if i > start { parts.append(TriePart(view: v, lower: start, upper: i)) }
                parts.append(TriePart(view: v, lower: i, upper: i + 1))
                var c = i + 1, from = c, childWeight = 0
                while c < i + size {
                    let s = trie.nodes[c].subtreeSize
                    if childWeight > 0 && childWeight + s > target {
                        parts.append(TriePart(view: v, lower: from, upper: c, parent: i))
                        from = c; childWeight = 0
                    }
                    childWeight += s
                    c += s
                }
                if c > from { parts.append(TriePart(view: v, lower: from, upper: c, parent: i)) }
                i += size
                start = i; weight = 0
                continue
            }
            weight += live ? size : 1
            i += size
            if weight >= target {
                parts.append(TriePart(view: v, lower: start, upper: i))
                start = i; weight = 0
            }
        }
        if i > start { parts.append(TriePart(view: v, lower: start, upper: i)) }
        return parts
    }

    /// The nodes a walk of trie `v` from `plan`'s state may visit, at most: the subtrees of the
    /// first-level nodes it does not reject at once.
    static func liveNodes(_ plan: EntryPlan, view v: Int, _ t: AutomatonTables) -> Int {
        let trie = plan.trie(v, t)
        var i = 0, n = 0
        while i < trie.count {
            let node = trie.nodes[i], size = node.subtreeSize
            n += t.target(plan.state, Int(t.classOf[Int(node.byte)])) >= 0 ? size : 1
            i += size
        }
        return n
    }
}

/// A first visit spread over threads: the trie walk that makes one state's mask-cache entry, cut into
/// parts (`TriePart`) that several threads walk at once, then merged into the entry a walk on one
/// thread would make, bit for bit. A batch fill (`GrammarMatcher.fillNextTokenMasks`, the C ABI's batch)
/// makes the rows it can at once and hands back the first visits large enough to split, so that one slow
/// state holds the batch up less (docs/performance.md, "Batch fill on threads").
public final class FirstVisitJob: @unchecked Sendable {
    // @unchecked: immutable after `init`; the plan holds raw pointers into the vocabulary's and the slices'
    // tries (`TrieView`, `ClassSkip`), which outlive the job and are only read.
    let compiled: CompiledGrammar
    let plan: EntryPlan
    let parts: [TriePart]

    init(compiled: CompiledGrammar, plan: EntryPlan, parts: [TriePart]) {
        self.compiled = compiled
        self.plan = plan
        self.parts = parts
    }

    /// A walk that may visit fewer nodes than this is made where it is met. On the batch benchmark the
    /// first visits slow enough to hold a batch up (0.3-1 ms at 152k tokens) may visit 100k nodes and
    /// more; the common ones may visit under 10k and cost their plan (the slice proofs) and the new
    /// automaton states they make more than their walk, which parts would not shorten.
    static let minSpreadNodes = 16_384

    /// Makes the entries of `jobs` (duplicates, by grammar and state, are made once) on this thread and up
    /// to `threads - 1` workers of `ForkJoinPool.shared`: every part of every job in one loop, then the
    /// merges in another.
    static func run(_ jobs: [FirstVisitJob], threads: Int) {
        var unique: [FirstVisitJob] = []
        var seen = Set<EntryIdentity>()
        for job in jobs where seen.insert(EntryIdentity(job)).inserted && job.compiled.cachedEntry(job.plan.key) == nil {
            unique.append(job)
        }
        make(unique, threads: threads, store: true)
    }

    /// The entries of `jobs`, in order; stored in their grammars' caches with `store`.
    @discardableResult
    static func make(_ jobs: [FirstVisitJob], threads: Int, store: Bool) -> [MaskCacheEntry] {
        if jobs.isEmpty { return [] }
        let participants = max(1, threads)
        let run = SpreadRun(jobs, participants: participants, store: store)
        defer { run.release() }
        ForkJoinPool.shared.run(iterations: run.taskCount, threads: participants) { k, p in run.walk(task: k, participant: p) }
        ForkJoinPool.shared.run(iterations: jobs.count, threads: participants) { j in run.merge(job: j) }
        return (0..<jobs.count).map { run.entries[$0]! }
    }
}

/// A job's grammar and state, for removing duplicates.
private struct EntryIdentity: Hashable {
    let grammar: ObjectIdentifier
    let key: Int32
    init(_ job: FirstVisitJob) { grammar = ObjectIdentifier(job.compiled); key = job.plan.key }
}

/// The buffers of one `FirstVisitJob.run`, shared by its threads.
private final class SpreadRun: @unchecked Sendable {
    // @unchecked: task k's `found` slot is written by the one participant the pool gave k; participant p's
    // accumulators and scratch matcher are touched only by p; job j's merge runs on one thread, after
    // every walk. Raw buffers, not arrays: an array element written from several threads goes through the
    // array's exclusive access.
    let jobs: [FirstVisitJob]
    let participants: Int
    /// Task k walks part `taskPart[k]` of job `taskJob[k]`; its findings go to `found[k]`. Job j's tasks
    /// are `firstTask[j]..<firstTask[j + 1]`, in part order.
    let firstTask: [Int]
    let taskJob: UnsafeMutablePointer<Int32>
    let taskPart: UnsafeMutablePointer<Int32>
    let found: UnsafeMutablePointer<EntryWalk>
    let taskCount: Int
    /// Participant p's accepted tokens for job j at `accumulators[j * participants + p]` (nil until p walks
    /// a part of j): parts walked by one thread share one bitmask, so a part costs no bitmask of its own.
    let accumulators: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>?>
    /// Participant p's matcher to walk with (its stack arena and depth scratch), for the grammar of the
    /// job it walked last.
    let scratch: UnsafeMutablePointer<GrammarMatcher?>
    /// The job participant p's scratch matcher was last made or used for (-1: none).
    let scratchJob: UnsafeMutablePointer<Int>
    /// Job j's entry, written by its merge.
    let entries: UnsafeMutablePointer<MaskCacheEntry?>
    let store: Bool

    init(_ jobs: [FirstVisitJob], participants: Int, store: Bool) {
        self.jobs = jobs
        self.participants = participants
        self.store = store
        entries = .allocate(capacity: jobs.count)
        entries.initialize(repeating: nil, count: jobs.count)
        taskCount = jobs.reduce(0) { $0 + $1.parts.count }
        taskJob = .allocate(capacity: taskCount)
        taskPart = .allocate(capacity: taskCount)
        found = .allocate(capacity: taskCount)
        found.initialize(repeating: EntryWalk(), count: taskCount)
        var k = 0
        var firstTask: [Int] = []
        for (j, job) in jobs.enumerated() {
            firstTask.append(k)
            for p in job.parts.indices {
                taskJob[k] = Int32(j); taskPart[k] = Int32(p)
                k += 1
            }
        }
        firstTask.append(k)
        self.firstTask = firstTask
        accumulators = .allocate(capacity: jobs.count * participants)
        accumulators.initialize(repeating: nil, count: jobs.count * participants)
        scratch = .allocate(capacity: participants)
        scratch.initialize(repeating: nil, count: participants)
        scratchJob = .allocate(capacity: participants)
        scratchJob.initialize(repeating: -1, count: participants)
    }

    func release() {
        found.deinitialize(count: taskCount); found.deallocate()
        taskJob.deallocate(); taskPart.deallocate()
        for i in 0..<jobs.count * participants { accumulators[i]?.deallocate() }
        accumulators.deallocate()
        scratch.deinitialize(count: participants); scratch.deallocate()
        scratchJob.deallocate()
        entries.deinitialize(count: jobs.count); entries.deallocate()
    }

    func walk(task k: Int, participant p: Int) {
        let j = Int(taskJob[k])
        let job = jobs[j]
        let words = job.compiled.vocabulary.maskWords
        let slot = accumulators + (j * participants + p)
        if slot.pointee == nil {
            let bits = UnsafeMutablePointer<UInt32>.allocate(capacity: words)
            bits.initialize(repeating: 0, count: words)
            slot.pointee = bits
        }
        // Job j's index, not the matcher's grammar: reading that through the optional would copy the
        // matcher (a retain of each of its arrays) for every part.
        if scratchJob[p] != j {
            if scratch[p] == nil || jobs[scratchJob[p]].compiled !== job.compiled { scratch[p] = GrammarMatcher(job.compiled, maxRollback: 0) }
            scratchJob[p] = j
        }
        scratch[p]!.walkEntryPart(job.plan, job.parts[Int(taskPart[k])], mask: slot.pointee!, into: &found[k])
    }

    func merge(job j: Int) {
        let job = jobs[j]
        var plan = job.plan
        let words = plan.accepted.count
        plan.accepted.withUnsafeMutableBufferPointer { accepted in
            for p in 0..<participants {
                guard let bits = accumulators[j * participants + p] else { continue }
                for w in 0..<words { accepted[w] |= bits[w] }
            }
        }
        // The parts' findings in trie order.
        var all = EntryWalk()
        for k in firstTask[j]..<firstTask[j + 1] {
            let f = found[k]
            all.uncertain += f.uncertain
            all.suffixPairs += f.suffixPairs
            all.ok = all.ok && f.ok
            all.overflow = all.overflow || f.overflow
        }
        // One walk stops once a list passes its limit; the parts each stayed under it, their sum may not.
        let limits = job.compiled.limits
        if all.uncertain.count > limits.maxUncertainTokens || all.suffixPairs.count > limits.maxSuffixTokens { all.ok = false }
        let entry = job.compiled.makeEntry(plan, all)
        entries[j] = entry
        if store { _ = job.compiled.store(entry, for: plan.key) }
    }
}

extension GrammarMatcher {
    /// The first visits this matcher's next mask needs that may visit at least `minNodes` trie nodes,
    /// each cut into parts of about `partNodes` nodes (default: `1 / (4 * threads)` of its nodes, at least
    /// 1,024). The smaller ones it needs are made here, at once. Empty when the mask can be filled now.
    mutating func spreadFirstVisits(threads: Int, minNodes: Int = FirstVisitJob.minSpreadNodes, partNodes: Int? = nil) -> [FirstVisitJob] {
        if failure != nil || isExhausted { return [] }
        let cp = current
        if cp.terminated { return [] }
        var jobs: [FirstVisitJob] = []
        let t = compiled.tables
        var i = Int(cp.setStart)
        while i < Int(cp.setEnd) {
            let node = engine.nodes[Int(sets[i])]
            i += 1
            let atBottom = node.parent == StackEngine.bottom
            if compiled.cachedEntry(Self.entryKey(node.state, atBottom)) != nil { continue }
            let plan = entryPlan(state: node.state, atBottom: atBottom)
            let nodes = plan.views.indices.reduce(0) { $0 + TriePart.liveNodes(plan, view: $1, t) }
            if nodes < minNodes {
                _ = buildEntry(plan)
                continue
            }
            let target = partNodes ?? max(1_024, nodes / (4 * max(1, threads)))
            let parts = plan.views.indices.flatMap { TriePart.split(plan, view: $0, target: target, t) }
            jobs.append(FirstVisitJob(compiled: compiled, plan: plan, parts: parts))
        }
        return jobs
    }
}

extension GrammarMatcher {
    /// For a batch fill on `threads` threads: fills the next-token mask as `fillNextTokenMask(into:)` does,
    /// unless it needs a first visit large enough to spread over threads: then returns those visits
    /// without writing `buffer`, and the caller makes them and fills again (`PutOffRows`).
    public mutating func fillNextTokenMask(into buffer: UnsafeMutableBufferPointer<UInt32>,
                                           spreadingFirstVisitsOver threads: Int) throws(MatcherError) -> [FirstVisitJob] {
        if threads > 1 && buffer.count >= compiled.vocabulary.maskWords {
            let jobs = spreadFirstVisits(threads: threads)
            if !jobs.isEmpty { return jobs }
        }
        try fillNextTokenMask(into: buffer)
        return []
    }
}

extension GrammarMatcher {
    /// For tests and the `spread` fuzz target: makes every first visit the next mask needs twice, in parts
    /// of about `partNodes` nodes on `threads` threads and in one walk, stores the entries made in parts,
    /// and returns the states whose two entries differ in any field (empty when they agree).
    @_spi(Testing) public mutating func spreadAndCompareFirstVisits(threads: Int, partNodes: Int) -> [Int32] {
        let jobs = spreadFirstVisits(threads: threads, minNodes: 0, partNodes: max(1, partNodes))
        let made = FirstVisitJob.make(jobs, threads: threads, store: false)
        var differ: [Int32] = []
        for (job, entry) in zip(jobs, made) {
            var plan = job.plan
            let found = walkEntry(&plan)
            if !entry.hasSameContent(as: compiled.makeEntry(plan, found)) { differ.append(plan.state) }
            _ = compiled.store(entry, for: plan.key)
        }
        return differ
    }
}

extension MaskCacheEntry {
    /// Every field equal: the same tokens, lists and tail groups, in the same order.
    func hasSameContent(as other: MaskCacheEntry) -> Bool {
        isDense == other.isDense && slice === other.slice && (sliceMembers == nil) == (other.sliceMembers == nil)
            && acceptedWords.elementsEqual(other.acceptedWords) && acceptedList.elementsEqual(other.acceptedList)
            && uncertain.elementsEqual(other.uncertain)
            && suffixes.hasSameContent(as: other.suffixes) && sharedTails.hasSameContent(as: other.sharedTails)
    }
}

extension SuffixGroups {
    func hasSameContent(as other: SuffixGroups) -> Bool {
        tails == other.tails && end == other.end && tokens == other.tokens && plainCharacters == other.plainCharacters
            && plainEnd == other.plainEnd && plainPairs == other.plainPairs
    }
}
