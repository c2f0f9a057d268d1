import GuidedSync

extension GrammarMatcher {
    /// Fills the next-token masks of many matchers at once, matcher `i` into row `i` of `masks` (rows of
    /// `rowWords` words, each at least that matcher's `maskWordCount`; words past it are zeroed), on this
    /// thread and up to `threads - 1` threads of the process's fork-join pool (`ForkJoinPool.shared`). The
    /// matchers may share compiled grammars. Each row is exactly what `fillNextTokenMask(into:)` writes.
    ///
    /// Returns each matcher's error, nil where its row was filled: a failing matcher does not stop the
    /// others. `masks` must hold `matchers.count * rowWords` words (a precondition).
    public static func fillNextTokenMasks(_ matchers: inout [GrammarMatcher], into masks: UnsafeMutableBufferPointer<UInt32>,
                                          rowWords: Int, threads: Int) -> [MatcherError?] {
        let n = matchers.count
        precondition(rowWords >= 0 && masks.count >= n * rowWords, "masks holds \(masks.count) words, \(n) rows of \(rowWords) need \(n * rowWords)")
        var errors = [MatcherError?](repeating: nil, count: n)
        guard n > 0, let base = masks.baseAddress else { return errors }
        // A row whose state is a large first visit is put off: the first loop fills the others and lists
        // those visits, which are then walked in parts on every thread, and the rows put off filled last.
        PutOffRows.with(count: n) { putOff in
            matchers.withUnsafeMutableBufferPointer { matchers in
                errors.withUnsafeMutableBufferPointer { errors in
                    let rows = BatchRows(matchers: matchers.baseAddress!, errors: errors.baseAddress!, masks: base, rowWords: rowWords, putOff: putOff)
                    ForkJoinPool.shared.run(iterations: n, threads: threads) { i in rows.fill(i, threads: threads) }
                    putOff.fillPutOffRows(threads: threads) { i in rows.fill(i, threads: 1) }
                }
            }
        }
        return errors
    }
}

/// The buffers of one batch fill, shared by its threads.
private struct BatchRows: @unchecked Sendable {
    // @unchecked: index i's matcher, error, row and put-off slot are touched only by the one thread the
    // pool gave i.
    let matchers: UnsafeMutablePointer<GrammarMatcher>
    let errors: UnsafeMutablePointer<MatcherError?>
    let masks: UnsafeMutablePointer<UInt32>
    let rowWords: Int
    let putOff: PutOffRows

    func fill(_ i: Int, threads: Int) {
        let row = UnsafeMutableBufferPointer(start: masks + i * rowWords, count: rowWords)
        do throws(MatcherError) {
            let visits = try matchers[i].fillNextTokenMask(into: row, spreadingFirstVisitsOver: threads)
            if !visits.isEmpty { putOff.putOff(i, for: visits); return }
            let used = matchers[i].maskWordCount
            if rowWords > used { (masks + i * rowWords + used).update(repeating: 0, count: rowWords - used) }
        } catch {
            errors[i] = error
        }
    }
}
