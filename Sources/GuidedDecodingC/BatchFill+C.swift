import GuidedMask
import GuidedSync
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Batch mask fill: one call fills a `[n_rows, words]` bitmask for many matchers, spreading them over
/// threads. Each matcher's fill is independent (the compiled grammar they may share is thread-safe), so
/// the work splits per matcher on the process's fork-join pool (`ForkJoinPool`): each thread fills its own
/// contiguous range of the batch (the same rows from call to call, so their memory stays in its core's
/// cache), then takes what is left of the others', which balances a batch where a few masks are slow (a
/// first visit to a state walks the vocabulary trie, ~1 ms at 152k tokens, against ~2 µs for a cached one).
enum BatchFill {
    /// What the threads share: each index's row, status and error are written by the one thread the pool
    /// gave that index.
    struct Shared: @unchecked Sendable {
        // @unchecked: a thread writes statuses[i], errors[i] and the row of index i only for the indices i the
        // pool gave it, each index to one thread, so no two threads touch the same element. Buffers, not
        // arrays: an array read on every thread is retained and released there, writing a reference count
        // they all share.
        /// Unretained: the caller's array holds them, and a retain on a worker would write the object's
        /// reference count, which the calling thread writes too.
        let matchers: UnsafeBufferPointer<Unmanaged<MatcherObject>>
        /// The row of matcher i (nil: row i).
        let rows: UnsafePointer<Int32>?
        let bitmask: UnsafeMutablePointer<Int32>
        let words: Int
        /// `ok` everywhere on entry (written by the calling thread: sixteen rows share a cache line, and
        /// workers writing them would move it between cores); a failing row writes its own.
        let statuses: UnsafeMutablePointer<Int32>
        /// errors[i] is initialized exactly where statuses[i] is not `ok`.
        let errors: UnsafeMutablePointer<CallError>
        /// The rows put off for a large first visit (slot i written by the thread that fills row i).
        let putOff: PutOffRows
    }

    /// A row whose state is a large first visit is put off: the first loop fills the others and lists those
    /// visits, which are then walked in parts on every thread (`FirstVisitJob`), and the rows put off are
    /// filled last. A batch of new requests is then no longer as slow as its slowest first visit.
    static func run(_ shared: Shared, threads: Int) {
        let n = shared.matchers.count
        ForkJoinPool.shared.run(iterations: n, threads: threads) { i in fill(shared, i, threads: threads) }
        shared.putOff.fillPutOffRows(threads: threads) { i in fill(shared, i, threads: 1) }
    }

    @inline(__always)
    private static func fill(_ shared: Shared, _ i: Int, threads: Int) {
        let row = shared.rows.map { Int($0[i]) } ?? i
        let failure: CallError? = shared.matchers[i]._withUnsafeGuaranteedRef { m in
            do throws(CallError) {
                let visits = try m.fill(shared.bitmask + row * shared.words, words: shared.words, spreadingFirstVisitsOver: threads)
                if !visits.isEmpty { shared.putOff.putOff(i, for: visits) }
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            shared.statuses[i] = failure.status.rawValue
            (shared.errors + i).initialize(to: failure)
        }
    }

    /// Numbers the batch calls, for the duplicate check (`MatcherObject.batchStamp`).
    static let calls = Atomic<UInt64>(0)
}

@_cdecl("gd_matcher_fill_bitmask_batch")
public func gd_matcher_fill_bitmask_batch(_ matchers: UnsafePointer<OpaquePointer?>?, _ n: Int, _ bitmask: UnsafeMutablePointer<Int32>?,
                                          _ nRows: Int, _ wordsPerRow: Int, _ rows: UnsafePointer<Int32>?, _ nThreads: Int,
                                          _ statuses: UnsafeMutablePointer<Int32>?) -> Int32 {
    cCall { () throws(CallError) in
        let handles = try CArguments.buffer(matchers, n, name: "matchers")
        if n == 0 { return }
        guard let bitmask else { throw .null("bitmask") }
        guard nRows >= 0, wordsPerRow >= 0, nThreads >= 0 else {
            throw CallError(.invalidArgument, "n_rows, words_per_row and n_threads must not be negative")
        }
        // The checks run on the calling thread before any worker starts, so they are kept to one lock (the
        // handle lookups), no sorting or hashing, and no allocation but the object list and the error slots:
        // at visited states a row's fill is about a microsecond.
        var objects: [MatcherObject] = []
        objects.reserveCapacity(n)
        try HandleRegistry.shared.objects(handles, .matcher, as: MatcherObject.self, into: &objects)
        for i in 0..<n where wordsPerRow < objects[i].maskWords {
            throw CallError(.bufferTooSmall, "bitmask rows have \(wordsPerRow) words, matcher \(i)'s vocabulary of \(objects[i].vocabularySize) tokens needs \(objects[i].maskWords)")
        }
        if let rows {
            var taken = [UInt64](repeating: 0, count: (nRows + 63) / 64)
            for i in 0..<n {
                let row = Int(rows[i])
                guard row >= 0, row < nRows else { throw CallError(.invalidArgument, "row \(row) of matcher \(i) is outside the bitmask's \(nRows) rows") }
                guard taken[row >> 6] & (1 << UInt64(row & 63)) == 0 else { throw CallError(.invalidArgument, "row \(row) is given to two matchers") }
                taken[row >> 6] |= 1 << UInt64(row & 63)
            }
        } else if n > nRows {
            throw CallError(.invalidArgument, "row \(nRows) of matcher \(nRows) is outside the bitmask's \(nRows) rows")
        }
        // A matcher twice would be filled by two threads at once. Each object is stamped with this call's
        // number (next to its reference count, which the lookup wrote anyway): a stamp already there is a
        // second appearance.
        let call = BatchFill.calls.wrappingAdd(1, ordering: .relaxed).newValue
        for i in 0..<n {
            guard objects[i].batchStamp != call else { throw CallError(.invalidArgument, "a matcher appears twice in the batch") }
            objects[i].batchStamp = call
        }
        let threads = nThreads == 0 ? min(ProcessorCount.value, ProcessorCount.defaultBatchThreads) : nThreads
        let statusBuffer = statuses ?? UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { if statuses == nil { statusBuffer.deallocate() } }
        statusBuffer.update(repeating: Status.ok.rawValue, count: n)
        let errors = UnsafeMutablePointer<CallError>.allocate(capacity: n)
        defer { errors.deallocate() }
        PutOffRows.with(count: n) { putOff in
            objects.withUnsafeBufferPointer { objects in
                objects.withMemoryRebound(to: Unmanaged<MatcherObject>.self) { unretained in
                    BatchFill.run(.init(matchers: unretained, rows: rows, bitmask: bitmask, words: wordsPerRow,
                                        statuses: statusBuffer, errors: errors, putOff: putOff), threads: threads)
                }
            }
        }
        var first: CallError? = nil
        for i in 0..<n where statusBuffer[i] != Status.ok.rawValue {
            let e = (errors + i).move()
            if first == nil { first = e }
        }
        if let first { throw first }
    }
}

/// Online CPUs, for `n_threads` 0.
enum ProcessorCount {
    /// `n_threads` 0 takes one thread per CPU up to this many: past it a batch of 64 rows gives each thread
    /// too few rows to repay its share of the call, and every worker spins 100 µs after each call (on a
    /// 128-core server that would be 13 ms of CPU per decoding step).
    static let defaultBatchThreads = 16
    static let value: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
