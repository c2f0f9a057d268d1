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
/// Linux spends about as long waking its threads as the loop saves (docs/performance.md, "Batch fill on
/// threads"). Three choices make it fit such loops:
/// - The caller starts on the work at once and workers join as they come, so a worker that wakes late
///   costs only its share. After a loop a worker spins for `spinNanoseconds`, so that a server's next
///   step, or the next batch of a step, finds it awake; then it sleeps on a condition variable.
/// - Participant p (the caller is 0, worker k is k + 1) first takes the indices of its own contiguous
///   range, `p * n / P ..< (p + 1) * n / P`, then steals from the other ranges once its own is done. A
///   caller that runs the same batch again (a server step: the same rows, the same matchers) gets each
///   index on the same thread as before, so each row's memory stays in one core's cache instead of moving
///   between cores at every call; stealing still balances a batch where a few indices are slow, or where
///   a worker is late.
/// - Each range's cursor is on a cache line of its own.
///
/// One loop at a time: a call made while another caller's loop runs does its work alone, on its own
/// thread, instead of waiting. `body` must not call `run` on the same pool (it would run serially).
///
/// How a worker joins safely (the ticket protocol). `ticket` is the loop's generation shifted left by one,
/// plus 1 while the loop is open. A worker that sees an open ticket counts itself in `active`, then reads
/// the ticket again: only if it is unchanged does it read the loop's fields (`body`, `participants`, the
/// ranges). The caller closes the ticket when every range is exhausted and returns only when `active` is
/// back to 0, so a worker never reads the fields of a loop that has returned, and the caller writes the
/// next loop's fields only after every worker of this one has left.
public final class ForkJoinPool: @unchecked Sendable {
    // @unchecked: `body`, `participants` and the range ends are written by the one caller holding `busy`,
    // before the ticket opens, and read by workers only after re-reading that open ticket (acquire) while
    // counted in `active`; the caller waits for `active` to reach 0 before it writes them again. The
    // cursors are atomics (CGuidedAtomics); everything else is an atomic or behind `mutex`.

    /// The pool of the process, its workers started on first use (as many as the largest `threads` asked
    /// for, less one). Spins 100 µs after a loop.
    public static let shared = ForkJoinPool(spinNanoseconds: 100_000)

    /// How long a worker busy-waits for the next loop before it sleeps.
    public let spinNanoseconds: UInt64
    /// The most workers the pool starts, whatever `threads` asks for.
    public static let maxWorkers = 255

    private let ticket = Atomic<UInt64>(0)
    private let active = Atomic<Int>(0)
    private let sleepers = Atomic<Int>(0)
    private let busy = Atomic<Bool>(false)
    private var body: (@Sendable (Int) -> Void)? = nil
    private var participants = 0
    private var workerCount = 0
    /// Per participant: the next index of its range (a cursor, advanced by fetch-add) and the range's end,
    /// `lineWords` apart so that no two cursors share a cache line.
    private let cursors: UnsafeMutablePointer<Int64>
    private let ends: UnsafeMutablePointer<Int64>
    private static let lineWords = 16
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>

    public init(spinNanoseconds: UInt64) {
        self.spinNanoseconds = spinNanoseconds
        let slots = (Self.maxWorkers + 1) * Self.lineWords
        cursors = .allocate(capacity: slots)
        cursors.initialize(repeating: 0, count: slots)
        ends = .allocate(capacity: Self.maxWorkers + 1)
        ends.initialize(repeating: 0, count: Self.maxWorkers + 1)
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
        guard n > 1, threads > 1, busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for i in 0..<max(0, n) { body(i) }
            return
        }
        defer { busy.store(false, ordering: .releasing) }
        let count = min(threads, n, Self.maxWorkers + 1)
        startWorkers(count - 1)
        withoutActuallyEscaping(body) { escapable in
            self.body = escapable
            participants = count
            for p in 0..<count {
                guided_store_i64(cursors + p * Self.lineWords, Int64(p * n / count))
                ends[p] = Int64((p + 1) * n / count)
            }
            let generation = (ticket.load(ordering: .relaxed) >> 1) &+ 1
            ticket.store(generation << 1 | 1, ordering: .sequentiallyConsistent)
            wakeSleepers(count - 1)
            work(as: 0, escapable)
            ticket.store(generation << 1, ordering: .sequentiallyConsistent)
            while active.load(ordering: .sequentiallyConsistent) != 0 { guided_cpu_relax() }
            self.body = nil
        }
    }

    /// Participant `p`'s share: its own range, then whatever is left of the others', in turn from the
    /// next participant on. Returns when every range is exhausted.
    @inline(__always)
    private func work(as p: Int, _ body: @Sendable (Int) -> Void) {
        let count = participants
        for k in 0..<count {
            let q = (p + k) % count
            let cursor = cursors + q * Self.lineWords, end = ends[q]
            while true {
                let i = guided_fetch_add_i64(cursor, 1)
                if i >= end { break }
                body(Int(i))
            }
        }
    }

    /// Sleeping workers learn of an open ticket here; spinning ones see it themselves. A worker counts
    /// itself in `sleepers` before it reads the ticket a last time and waits, and the caller opens the ticket
    /// before it reads `sleepers` (both sequentially consistent): one of the two sees the other.
    private func wakeSleepers(_ wanted: Int) {
        if sleepers.load(ordering: .sequentiallyConsistent) == 0 { return }
        pthread_mutex_lock(mutex)
        // Broadcast: the workers that take part are the first `wanted` by index, whichever are asleep.
        if wanted > 0 { pthread_cond_broadcast(wake) }
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

    /// Worker `index`'s life: wait for an open ticket of a loop it has not seen, take part if the loop has
    /// a participant `index + 1`, and wait again.
    fileprivate func workerLoop(index: Int) {
        var seen: UInt64 = 0
        while true {
            let observed = awaitTicket(after: seen)
            seen = observed >> 1
            active.wrappingAdd(1, ordering: .sequentiallyConsistent)
            if ticket.load(ordering: .sequentiallyConsistent) == observed { participate(as: index + 1) }
            active.wrappingSubtract(1, ordering: .releasing)
        }
    }

    /// Takes part in the open loop as participant `p`, if it has one. A function of its own, so that the
    /// copy of `body` it makes is released when it returns, before the worker leaves `active`: the caller's
    /// `withoutActuallyEscaping` checks that no copy outlives the loop.
    @inline(never)
    private func participate(as p: Int) {
        guard p < participants, let body else { return }
        work(as: p, body)
    }

    /// The next open ticket of a generation other than `seen`: spin for `spinNanoseconds`, then sleep.
    private func awaitTicket(after seen: UInt64) -> UInt64 {
        @inline(__always) func fresh(_ t: UInt64) -> Bool { t & 1 == 1 && t >> 1 != seen }
        let deadline = Self.now() &+ spinNanoseconds
        var spins = 0
        while true {
            let t = ticket.load(ordering: .acquiring)
            if fresh(t) { return t }
            spins += 1
            if spins & 63 == 0, Self.now() >= deadline { break }
            guided_cpu_relax()
        }
        pthread_mutex_lock(mutex)
        sleepers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        var t = ticket.load(ordering: .sequentiallyConsistent)
        while !fresh(t) {
            pthread_cond_wait(wake, mutex)
            t = ticket.load(ordering: .sequentiallyConsistent)
        }
        sleepers.wrappingSubtract(1, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
        return t
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
