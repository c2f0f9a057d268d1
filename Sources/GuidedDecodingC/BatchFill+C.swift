import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Batch mask fill: one call fills a `[n_rows, words]` bitmask for many matchers, spreading them over
/// threads. Each matcher's fill is independent (the compiled grammar they may share is thread-safe), so
/// the work splits per matcher; workers take the next matcher from a shared counter, which balances a
/// batch where a few masks are slow (a first visit to a state walks the vocabulary trie, ~1 ms at 152k
/// tokens, against ~10 µs for a cached one).
enum BatchFill {
    final class Counter: Sendable {
        let next = Atomic<Int>(0)
    }

    /// The statuses buffer and the rows, shared by the workers: each index is written by one worker only.
    struct Shared: @unchecked Sendable {
        // @unchecked: worker k writes statuses[i] and row rows[i] only for the indices i it took from the
        // counter, so no two threads touch the same element.
        let matchers: [MatcherObject]
        let rows: [Int]
        let bitmask: UnsafeMutablePointer<Int32>
        let words: Int
        let statuses: UnsafeMutablePointer<Int32>
        let errors: UnsafeMutablePointer<CallError?>
    }

    static func run(_ shared: Shared, threads: Int) {
        let n = shared.matchers.count
        let counter = Counter()
        let work: @Sendable (Int) -> Void = { _ in
            while true {
                let i = counter.next.wrappingAdd(1, ordering: .relaxed).oldValue
                if i >= n { return }
                do throws(CallError) {
                    try shared.matchers[i].fill(shared.bitmask + shared.rows[i] * shared.words, words: shared.words)
                    shared.statuses[i] = Status.ok.rawValue
                } catch {
                    shared.statuses[i] = error.status.rawValue
                    shared.errors[i] = error
                }
            }
        }
        if threads <= 1 || n <= 1 { work(0); return }
        DispatchQueue.concurrentPerform(iterations: min(threads, n), execute: work)
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
        let rowList = rows.map { Array(UnsafeBufferPointer(start: $0, count: n)).map(Int.init) } ?? Array(0..<n)
        var objects: [MatcherObject] = []
        objects.reserveCapacity(n)
        var seenRows = Set<Int>(minimumCapacity: n)
        for i in 0..<n {
            let m = try MatcherObject.lookup(handles[i])
            guard wordsPerRow >= m.maskWords else {
                throw CallError(.bufferTooSmall, "bitmask rows have \(wordsPerRow) words, matcher \(i)'s vocabulary of \(m.vocabularySize) tokens needs \(m.maskWords)")
            }
            let row = rowList[i]
            guard row >= 0, row < nRows else { throw CallError(.invalidArgument, "row \(row) of matcher \(i) is outside the bitmask's \(nRows) rows") }
            guard seenRows.insert(row).inserted else { throw CallError(.invalidArgument, "row \(row) is given to two matchers") }
            objects.append(m)
        }
        // A matcher twice would be filled by two threads at once.
        let identities = objects.map { ObjectIdentifier($0) }.sorted()
        for k in 1..<max(1, identities.count) where identities[k] == identities[k - 1] {
            throw CallError(.invalidArgument, "a matcher appears twice in the batch")
        }
        let threads = nThreads == 0 ? ProcessorCount.value : nThreads
        let statusBuffer = statuses ?? UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { if statuses == nil { statusBuffer.deallocate() } }
        let errors = UnsafeMutablePointer<CallError?>.allocate(capacity: n)
        errors.initialize(repeating: nil, count: n)
        defer { errors.deinitialize(count: n); errors.deallocate() }
        BatchFill.run(.init(matchers: objects, rows: rowList, bitmask: bitmask, words: wordsPerRow,
                            statuses: statusBuffer, errors: errors), threads: threads)
        for i in 0..<n { if let e = errors[i] { throw e } }
    }
}

/// Online CPUs, for `n_threads` 0.
enum ProcessorCount {
    static let value: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
