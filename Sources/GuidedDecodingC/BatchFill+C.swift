import GuidedSync
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Batch mask fill: one call fills a `[n_rows, words]` bitmask for many matchers, spreading them over
/// threads. Each matcher's fill is independent (the compiled grammar they may share is thread-safe), so
/// the work splits per matcher on the process's fork-join pool (`ForkJoinPool`): the threads take the next
/// matcher from a shared counter, which balances a batch where a few masks are slow (a first visit to a
/// state walks the vocabulary trie, ~1 ms at 152k tokens, against ~10 µs for a cached one).
enum BatchFill {
    /// The statuses buffer and the rows, shared by the workers: each index is written by one worker only.
    struct Shared: @unchecked Sendable {
        // @unchecked: a thread writes statuses[i], errors[i] and row rows[i] only for the indices i the pool
        // gave it, each index to one thread, so no two threads touch the same element.
        // Buffers, not arrays: an array read on every thread is retained and released there, writing a
        // reference count they all share.
        let matchers: UnsafeBufferPointer<MatcherObject>
        let rows: UnsafeBufferPointer<Int>
        let bitmask: UnsafeMutablePointer<Int32>
        let words: Int
        let statuses: UnsafeMutablePointer<Int32>
        let errors: UnsafeMutablePointer<CallError?>
    }

    static func run(_ shared: Shared, threads: Int) {
        let n = shared.matchers.count
        @Sendable func fill(_ i: Int) {
            do throws(CallError) {
                try shared.matchers[i].fill(shared.bitmask + shared.rows[i] * shared.words, words: shared.words)
                shared.statuses[i] = Status.ok.rawValue
            } catch {
                shared.statuses[i] = error.status.rawValue
                shared.errors[i] = error
            }
        }
        ForkJoinPool.shared.run(iterations: n, threads: threads) { i in fill(i) }
    }
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
        // handle lookups), no hashing and no allocation beyond the object list: at visited states a row's
        // fill is about a microsecond.
        var objects: [MatcherObject] = []
        objects.reserveCapacity(n)
        try HandleRegistry.shared.objects(handles, .matcher, as: MatcherObject.self, into: &objects)
        let rowList = rows.map { r in (0..<n).map { Int(r[$0]) } } ?? Array(0..<n)
        for i in 0..<n where wordsPerRow < objects[i].maskWords {
            throw CallError(.bufferTooSmall, "bitmask rows have \(wordsPerRow) words, matcher \(i)'s vocabulary of \(objects[i].vocabularySize) tokens needs \(objects[i].maskWords)")
        }
        if rows == nil {
            guard n <= nRows else { throw CallError(.invalidArgument, "row \(nRows) of matcher \(nRows) is outside the bitmask's \(nRows) rows") }
        } else {
            var taken = [UInt64](repeating: 0, count: (nRows + 63) / 64)
            for (i, row) in rowList.enumerated() {
                guard row >= 0, row < nRows else { throw CallError(.invalidArgument, "row \(row) of matcher \(i) is outside the bitmask's \(nRows) rows") }
                guard taken[row >> 6] & (1 << UInt64(row & 63)) == 0 else { throw CallError(.invalidArgument, "row \(row) is given to two matchers") }
                taken[row >> 6] |= 1 << UInt64(row & 63)
            }
        }
        // A matcher twice would be filled by two threads at once.
        if n > 1 {
            var identities = objects.map { UInt(bitPattern: ObjectIdentifier($0)) }
            identities.sort()
            for k in 1..<n where identities[k] == identities[k - 1] {
                throw CallError(.invalidArgument, "a matcher appears twice in the batch")
            }
        }
        let threads = nThreads == 0 ? ProcessorCount.value : nThreads
        let statusBuffer = statuses ?? UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { if statuses == nil { statusBuffer.deallocate() } }
        let errors = UnsafeMutablePointer<CallError?>.allocate(capacity: n)
        errors.initialize(repeating: nil, count: n)
        defer { errors.deinitialize(count: n); errors.deallocate() }
        objects.withUnsafeBufferPointer { objects in
            rowList.withUnsafeBufferPointer { rowList in
                BatchFill.run(.init(matchers: objects, rows: rowList, bitmask: bitmask, words: wordsPerRow,
                                    statuses: statusBuffer, errors: errors), threads: threads)
            }
        }
        for i in 0..<n { if let e = errors[i] { throw e } }
    }
}

/// Online CPUs, for `n_threads` 0.
enum ProcessorCount {
    static let value: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
