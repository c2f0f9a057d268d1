#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGuidedAtomics
import Synchronization

/// Threads kept for one short parallel loop at a time: `run(iterations:threads:_:)` calls `body(i)` for every
/// `i` in `0..<iterations`, spread over the calling thread and up to `threads - 1` workers, and returns when
/// every call has returned.
///
/// Built for loops of 10 µs to a few ms (a batch mask fill), where `DispatchQueue.concurrentPerform` on
/// Linux spends about as long waking its threads as the loop saves, and where every cache line that two
/// cores write in turn costs a transfer of 0.1-0.5 µs (docs/performance.md, "Batch fill on threads"):
/// - Each participant has a slot of its own (two cache lines): the caller posts the loop into a worker's
///   slot (the loop's size, the worker's range, the body) with one store of its state, and the
///   worker, spinning on that slot alone, finds everything it needs in the one line it receives. Idle
///   workers spin on lines nobody writes, and no counter is shared by all participants.
/// - The caller starts on the work at once and workers join as they come. Participant p (the caller is 0,
///   worker k is k + 1) first takes the indices of its own contiguous range, `p * n / P ..< (p + 1) * n / P`,
///   then steals from the other ranges once its own is done. A caller that runs the same batch again (a
///   server step: the same rows, the same matchers) gets each index on the same thread as before, so each
///   row's memory stays in one core's cache; stealing still balances a batch where a few indices are slow,
///   or where a worker is late.
/// - After a loop a worker spins for `spinNanoseconds`, so that a server's next step finds it awake; then
///   it sleeps on a condition variable.
///
/// One loop at a time: a call made while another caller's loop runs does its work alone, on its own
/// thread, instead of waiting. `body` must not call `run` on the same pool (it would run serially).
///
/// How a slot's state moves (the word is the loop's generation shifted left by two, plus a phase): the
/// caller writes the slot's fields and posts (`posted`); the worker claims it by compare-exchange
/// (`posted` -> `running`), reads the fields, works, and stores `finished`. Once every range is
/// exhausted the caller tries to cancel each slot it posted (`posted` -> `finished`, by compare-exchange):
/// a worker that has not claimed its slot by then never will, and the caller waits only for the slots it
/// could not cancel. So no worker reads a loop's fields after `run` has returned, and a worker still
/// asleep costs the caller nothing.
public final class ForkJoinPool: @unchecked Sendable {
    // @unchecked: a slot's fields are written by the one caller holding `busy` before it posts the slot
    // (release) and read by the worker only after it claimed that posting (acquire); the caller writes them
    // again only after the slot is finished or cancelled. Cursors are atomics on raw memory
    // (CGuidedAtomics); everything else is an atomic or behind `mutex`.

    /// The pool of the process, its workers started on first use (as many as the largest `threads` asked
    /// for, less one). Spins 100 µs after a loop.
    public static let shared = ForkJoinPool(spinNanoseconds: 100_000)

    /// How long a worker busy-waits for the next loop before it sleeps.
    public let spinNanoseconds: UInt64
    /// How long a participant done with its own range lets another's current index run before it takes
    /// that participant's next index; 0 (the default) takes at once. Taking an index moves its memory (a
    /// batch fill's 19 KB row) to another core, where the next loop's owner must fetch it back, so in a
    /// loop of even indices eager stealing may cost more than it balances; patience steals only from a
    /// participant that is late to start or held up by a slow index, but its waiting thieves read the
    /// owners' cursors (on two vCPUs that cost more than it saved: docs/performance.md, "Batch fill on
    /// threads"). For measurements: set it while no thread is in `run` (each loop reads it as it starts).
    public var patienceNanoseconds: UInt64 = 0
    /// The most workers the pool starts, whatever `threads` asks for.
    public static let maxWorkers = 255

    private let sleepers = Atomic<Int>(0)
    private let busy = Atomic<Bool>(false)
    private var generation: UInt64 = 0
    private var workerCount = 0
    /// Participant p's slot at `slots + p * slotBytes`: 128 bytes, so that the adjacent-line prefetch of
    /// one slot never pulls in another. Its words: the state, the range's cursor (the next index; the
    /// range ends where the next participant's begins), the loop's iterations and participants, the
    /// job, the loop's patience. The caller's slot (p = 0) uses only its cursor.
    private let slots: UnsafeMutableRawPointer
    private static let slotBytes = 128
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>

    // A slot's words (byte offsets).
    private static let stateOffset = 0, cursorOffset = 8, iterationsOffset = 16, participantsOffset = 24,
                       jobOffset = 32, patienceOffset = 40
    // A state's phase (its low two bits).
    private static let posted: UInt64 = 1, running: UInt64 = 2, finished: UInt64 = 3

    public init(spinNanoseconds: UInt64) {
        self.spinNanoseconds = spinNanoseconds
        let bytes = (Self.maxWorkers + 1) * Self.slotBytes
        slots = .allocate(byteCount: bytes, alignment: Self.slotBytes)
        slots.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        wake = .allocate(capacity: 1)
        wake.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(wake, nil) == 0, "pthread init failed")
    }

    // Workers hold the pool for ever (they are detached), so a pool is never freed: `shared` lives for the
    // process, and a pool of one's own should too.

    /// Calls `body(i)` for each `i` in `0..<iterations`, on this thread and up to `threads - 1` workers, each
    /// index exactly once, in no particular order; returns when all calls have returned.
    public func run(iterations n: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
        run(iterations: n, threads: threads) { i, _ in body(i) }
    }

    /// As `run(iterations:threads:_:)`, with the participant that makes each call: `body(i, p)`, where `p`
    /// is in `0..<threads` (0 is the calling thread) and no two calls with the same `p` overlap. Lets a
    /// loop keep one scratch buffer per participant instead of one per index.
    public func run(iterations n: Int, threads: Int, participant body: @Sendable (Int, Int) -> Void) {
        guard n > 1, threads > 1, busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for i in 0..<max(0, n) { body(i, 0) }
            return
        }
        defer { busy.store(false, ordering: .releasing) }
        startWorkers(min(threads, n, Self.maxWorkers + 1) - 1)
        let count = min(threads, n, workerCount + 1)
        generation &+= 1
        let g = generation << 2
        withoutActuallyEscaping(body) { escapable in
            // The body reaches workers through an unretained box: a worker copying the closure would
            // retain its context, a reference count every worker writes at the start of every loop.
            let job = Job(escapable)
            let jobPointer = Unmanaged.passUnretained(job).toOpaque()
            // Every cursor is written before the first posting: a worker steals from the others' ranges,
            // and must not read a cursor left from the last loop.
            Self.setWord(slots, Self.cursorOffset, 0)
            let patience = Int64(clamping: patienceNanoseconds)
            for p in 1..<count {
                let slot = self.slot(p)
                Self.setWord(slot, Self.cursorOffset, Int64(p * n / count))
                Self.setWord(slot, Self.iterationsOffset, Int64(n))
                Self.setWord(slot, Self.participantsOffset, Int64(count))
                slot.storeBytes(of: jobPointer, toByteOffset: Self.jobOffset, as: UnsafeMutableRawPointer.self)
                Self.setWord(slot, Self.patienceOffset, patience)
            }
            // Release stores, one fence after them all: a sequentially consistent store is a locked
            // instruction that waits for its line, and the line is in the spinning worker's cache, so
            // seven of them in a row cost seven transfers one after the other; plain stores overlap theirs.
            // The fence orders the postings before `wakeSleepers` reads the count of sleepers.
            for p in 1..<count { guided_store_u64_release(Self.state(slot(p)), g | Self.posted) }
            guided_fence_seq_cst()
            wakeSleepers()
            work(as: 0, iterations: n, participants: count, patience: patience, job)
            for p in 1..<count {
                let state = Self.state(slot(p))
                // A load first: a worker has almost always finished by now, and a compare-exchange would
                // take each finished slot's line for itself, one transfer after another.
                if guided_load_u64_acquire(state) == g | Self.finished { continue }
                if guided_cas_u64(state, g | Self.posted, g | Self.finished) { continue }
                while guided_load_u64_acquire(state) != g | Self.finished { guided_cpu_relax() }
            }
            withExtendedLifetime(job) {}
        }
    }

    /// The loop's body, boxed so that workers call it through an unretained reference.
    private final class Job {
        let body: @Sendable (Int, Int) -> Void
        init(_ body: @escaping @Sendable (Int, Int) -> Void) { self.body = body }
    }

    @inline(__always) private func slot(_ p: Int) -> UnsafeMutableRawPointer { slots + p * Self.slotBytes }

    @inline(__always) private static func state(_ slot: UnsafeMutableRawPointer) -> UnsafeMutablePointer<UInt64> {
        (slot + stateOffset).assumingMemoryBound(to: UInt64.self)
    }

    @inline(__always) private static func word(_ slot: UnsafeMutableRawPointer, _ offset: Int) -> UnsafeMutablePointer<Int64> {
        (slot + offset).assumingMemoryBound(to: Int64.self)
    }

    @inline(__always) private static func setWord(_ slot: UnsafeMutableRawPointer, _ offset: Int, _ v: Int64) {
        guided_store_i64(word(slot, offset), v)
    }

    /// Participant `p`'s share: its own range, then whatever is left of the others', in turn from the
    /// next participant on (with `patience`, only from a participant late or held up: `workPatiently`).
    /// Returns when every range is exhausted.
    @inline(__always)
    private func work(as p: Int, iterations n: Int, participants count: Int, patience: Int64, _ job: Job) {
        if patience > 0 { return workPatiently(as: p, iterations: n, participants: count, patience: patience, job) }
        for k in 0..<count {
            let q = (p + k) % count
            let cursor = Self.word(slot(q), Self.cursorOffset), end = Int64((q + 1) * n / count)
            // A plain read first: a range that is done costs a shared read, not taking the line from its
            // owner.
            if k > 0 && guided_load_i64(cursor) >= end { continue }
            while true {
                let i = guided_fetch_add_i64(cursor, 1)
                if i >= end { break }
                job.body(Int(i), p)
            }
        }
    }

    /// `work` with patience: the own range, then passes over the others' ranges. A thief notes each
    /// owner's cursor and when it last saw it move; it takes an owner's next index only where the owner
    /// has not claimed its posting (a worker still waking) or its cursor has stood still for longer than
    /// `patience` (its current index is slow). Owners write nothing for this: the cursor they advance
    /// anyway is the clock's witness. Returns when every range is exhausted.
    private func workPatiently(as p: Int, iterations n: Int, participants count: Int, patience: Int64, _ job: Job) {
        let own = Self.word(slot(p), Self.cursorOffset), ownEnd = Int64((p + 1) * n / count)
        while true {
            let i = guided_fetch_add_i64(own, 1)
            if i >= ownEnd { break }
            job.body(Int(i), p)
        }
        withUnsafeTemporaryAllocation(of: (cursor: Int64, since: Int64).self, capacity: count) { seen in
            seen.initialize(repeating: (-1, 0))
            var pause = 16
            while true {
                var pending = false, took = false
                let now = Int64(clamping: Self.now())
                for k in 1..<count {
                    let q = (p + k) % count, victim = slot(q)
                    let cursor = Self.word(victim, Self.cursorOffset), end = Int64((q + 1) * n / count)
                    let c = guided_load_i64(cursor)
                    if c >= end { continue }
                    pending = true
                    let late = q > 0 && guided_load_u64_acquire(Self.state(victim)) & 3 == Self.posted
                    if !late {
                        if c != seen[q].cursor { seen[q] = (c, now); continue }
                        if now - seen[q].since <= patience { continue }
                    }
                    let i = guided_fetch_add_i64(cursor, 1)
                    if i < end { job.body(Int(i), p); took = true }
                    seen[q] = (-1, 0)
                }
                if !pending { return }
                // Between passes, waits that double up to ~1,000 pauses (back to the shortest after a
                // take): each pass reads the owners' cursors, and an owner whose line a thief has just
                // read waits for it at its next index.
                pause = took ? 16 : min(pause * 2, 1_024)
                for _ in 0..<pause { guided_cpu_relax() }
            }
        }
    }

    /// Sleeping workers learn of a posted slot here; spinning ones see it themselves. A worker counts
    /// itself in `sleepers` before it reads its state a last time and waits (both sequentially consistent),
    /// and the caller posts, fences and then reads `sleepers`: one of the two sees the other.
    private func wakeSleepers() {
        if sleepers.load(ordering: .sequentiallyConsistent) == 0 { return }
        pthread_mutex_lock(mutex)
        // Broadcast: a worker whose slot was not posted goes back to sleep.
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(mutex)
    }

    private func startWorkers(_ wanted: Int) {
        while workerCount < wanted {
            let context = Unmanaged.passRetained(WorkerContext(pool: self, index: workerCount)).toOpaque()
            // No more threads: the loops run on those there are (the caller alone if none).
            guard startDetachedThread(context) else {
                Unmanaged<WorkerContext>.fromOpaque(context).release()
                return
            }
            workerCount += 1
        }
    }

    /// Worker `index`'s life (participant `index + 1`): wait for a posting of a generation it has not
    /// seen, claim it, take part, finish it, and wait again. A posting the caller cancelled first is
    /// skipped.
    fileprivate func workerLoop(index: Int) {
        let p = index + 1, slot = self.slot(p), state = Self.state(slot)
        var seen: UInt64 = 0
        while true {
            let observed = awaitPosting(state, after: seen)
            seen = observed >> 2
            let g = observed & ~3
            guard guided_cas_u64(state, observed, g | Self.running) else { continue }
            let n = Int(guided_load_i64(Self.word(slot, Self.iterationsOffset)))
            let count = Int(guided_load_i64(Self.word(slot, Self.participantsOffset)))
            let job = Unmanaged<Job>.fromOpaque(slot.load(fromByteOffset: Self.jobOffset, as: UnsafeMutableRawPointer.self))
            let patience = guided_load_i64(Self.word(slot, Self.patienceOffset))
            job._withUnsafeGuaranteedRef { work(as: p, iterations: n, participants: count, patience: patience, $0) }
            guided_store_u64_release(state, g | Self.finished)
        }
    }

    /// The next posting of a generation other than `seen`: spin for `spinNanoseconds`, then sleep.
    private func awaitPosting(_ state: UnsafeMutablePointer<UInt64>, after seen: UInt64) -> UInt64 {
        @inline(__always) func fresh(_ s: UInt64) -> Bool { s & 3 == Self.posted && s >> 2 != seen }
        let deadline = Self.now() &+ spinNanoseconds
        var spins = 0
        while true {
            let s = guided_load_u64_acquire(state)
            if fresh(s) { return s }
            spins += 1
            if spins & 63 == 0, Self.now() >= deadline { break }
            guided_cpu_relax()
        }
        pthread_mutex_lock(mutex)
        sleepers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        var s = guided_load_u64_seq_cst(state)
        while !fresh(s) {
            pthread_cond_wait(wake, mutex)
            s = guided_load_u64_seq_cst(state)
        }
        sleepers.wrappingSubtract(1, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
        return s
    }

    private static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// What a worker thread starts with.
private final class WorkerContext {
    let pool: ForkJoinPool
    let index: Int
    init(pool: ForkJoinPool, index: Int) { self.pool = pool; self.index = index }
}

private func runWorker(_ context: UnsafeMutableRawPointer) {
    let worker = Unmanaged<WorkerContext>.fromOpaque(context).takeRetainedValue()
    worker.pool.workerLoop(index: worker.index)
}

#if canImport(Darwin)
private func startDetachedThread(_ context: UnsafeMutableRawPointer) -> Bool {
    var thread: pthread_t? = nil
    guard pthread_create(&thread, nil, forkJoinWorkerMain, context) == 0, let thread else { return false }
    pthread_detach(thread)
    return true
}

private func forkJoinWorkerMain(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    runWorker(context)
    return nil
}
#else
private func startDetachedThread(_ context: UnsafeMutableRawPointer) -> Bool {
    var thread = pthread_t()
    guard pthread_create(&thread, nil, forkJoinWorkerMain, context) == 0 else { return false }
    pthread_detach(thread)
    return true
}

private func forkJoinWorkerMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    runWorker(context!)
    return nil
}
#endif
