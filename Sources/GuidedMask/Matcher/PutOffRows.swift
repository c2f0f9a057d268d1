import GuidedSync

/// The rows of a batch fill put off for a large first visit (`GrammarMatcher.fillNextTokenMask(into:
/// spreadingFirstVisitsOver:)`): the batch's first loop records each row's visits here, then
/// `fillPutOffRows` makes them on every thread (`FirstVisitJob.run`) and fills those rows again.
public struct PutOffRows: @unchecked Sendable {
    // @unchecked: slot i is written by the one thread the pool gave row i, and read by the calling thread
    // after that loop has returned.
    private let slots: UnsafeMutablePointer<[FirstVisitJob]>
    private let count: Int

    /// Calls `body` with the slots of `count` rows, all empty.
    public static func with<R>(count: Int, _ body: (PutOffRows) throws -> R) rethrows -> R {
        let slots = UnsafeMutablePointer<[FirstVisitJob]>.allocate(capacity: count)
        slots.initialize(repeating: [], count: count)
        defer { slots.deinitialize(count: count); slots.deallocate() }
        return try body(PutOffRows(slots: slots, count: count))
    }

    /// Row `i` was put off for `visits` (on the thread that filled row i).
    public func putOff(_ i: Int, for visits: [FirstVisitJob]) { slots[i] = visits }

    /// After the first loop: makes the visits of the rows put off on `threads` threads, then calls
    /// `fill(i)` for each such row i on the pool (one slot per row: reading them costs the calling thread
    /// a few lines it wrote itself where no row was put off).
    public func fillPutOffRows(threads: Int, _ fill: @Sendable (Int) -> Void) {
        let rows = (0..<count).filter { !slots[$0].isEmpty }
        if rows.isEmpty { return }
        FirstVisitJob.run(rows.flatMap { slots[$0] }, threads: threads)
        ForkJoinPool.shared.run(iterations: rows.count, threads: threads) { k in fill(rows[k]) }
    }
}
