import Dispatch
import Foundation
import GuidedSync
import Synchronization
import Testing

/// Counts calls per index: each index has its own atomic slot, so a duplicate or a missing call shows as a
/// count other than 1.
private final class Visits: Sendable {
    final class Slot: Sendable { let count = Atomic<Int>(0) }
    let slots: [Slot]
    init(_ n: Int) { slots = (0..<n).map { _ in Slot() } }
    func visit(_ i: Int) { slots[i].count.wrappingAdd(1, ordering: .relaxed) }
    var all: [Int] { slots.map { $0.count.load(ordering: .relaxed) } }
}

@Suite struct ForkJoinPoolTests {
    @Test(arguments: [0, 1, 2, 3, 7, 64, 1_000])
    func everyIndexOnceAtAnyWidth(iterations: Int) {
        let pool = ForkJoinPool(spinNanoseconds: 50_000)
        for threads in [1, 2, 3, 8, 17] {
            let visits = Visits(iterations)
            pool.run(iterations: iterations, threads: threads) { visits.visit($0) }
            #expect(visits.all == Array(repeating: 1, count: iterations), "threads \(threads)")
        }
    }

    /// The participant of each call is below `threads`, and no two calls of one participant overlap: a
    /// call that finds its participant's flag already set saw another call of it in flight. Every
    /// participant but the caller takes part somewhere in 200 loops of slow bodies.
    @Test func participantsAreBelowThreadsAndNeverOverlap() {
        let pool = ForkJoinPool(spinNanoseconds: 100_000)
        let threads = 4
        let busy = Visits(threads), calls = Visits(threads), overlaps = Atomic<Int>(0), outside = Atomic<Int>(0)
        for _ in 0..<200 {
            let visits = Visits(64)
            pool.run(iterations: 64, threads: threads) { i, p in
                guard p >= 0 && p < threads else { outside.wrappingAdd(1, ordering: .relaxed); return }
                if busy.slots[p].count.exchange(1, ordering: .acquiring) != 0 { overlaps.wrappingAdd(1, ordering: .relaxed) }
                visits.visit(i)
                calls.visit(p)
                for _ in 0..<200 { _ = busy.slots[p].count.load(ordering: .relaxed) }
                busy.slots[p].count.store(0, ordering: .releasing)
            }
            #expect(visits.all == Array(repeating: 1, count: 64))
        }
        #expect(outside.load(ordering: .relaxed) == 0)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(calls.all.allSatisfy { $0 > 0 }, "participants' calls: \(calls.all)")
    }

    /// Back-to-back loops (workers still spinning), loops after the spin ran out (workers asleep), and a
    /// pool that never spins: every loop completes with every index once.
    @Test func wakesSpinningAndSleepingWorkers() {
        for spin: UInt64 in [0, 100_000] {
            let pool = ForkJoinPool(spinNanoseconds: spin)
            for round in 0..<300 {
                if round % 50 == 49 { usleep(2_000) }
                let n = 1 + round % 67
                let visits = Visits(n)
                pool.run(iterations: n, threads: 1 + round % 9) { visits.visit($0) }
                #expect(visits.all == Array(repeating: 1, count: n), "spin \(spin), round \(round)")
            }
        }
    }

    /// A worker that wakes after the loop is over finds its posting cancelled (the caller exhausted every
    /// range and cancelled the slots no worker had claimed): no index runs again, and no late worker reads
    /// the returned loop's body. With no spin every loop posts to sleeping workers, most of them woken
    /// too late to take part.
    @Test func lateWorkersFindTheirPostingCancelled() {
        let pool = ForkJoinPool(spinNanoseconds: 0)
        var loops: [Visits] = []
        for round in 0..<200 {
            let n = 2 + round % 7
            let visits = Visits(n)
            pool.run(iterations: n, threads: 8) { visits.visit($0) }
            #expect(visits.all == Array(repeating: 1, count: n), "round \(round)")
            loops.append(visits)
        }
        usleep(20_000)
        #expect(loops.allSatisfy { $0.all.allSatisfy { $0 == 1 } })
    }

    /// Two callers at once: one gets the workers, the other runs its loop alone; both see every index once.
    @Test func concurrentCallersBothComplete() {
        let pool = ForkJoinPool(spinNanoseconds: 20_000)
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { caller in
            for round in 0..<200 {
                let n = 10 + (caller * 7 + round) % 50
                let visits = Visits(n)
                pool.run(iterations: n, threads: 4) { i in
                    if i % 13 == 0 { usleep(10) }
                    visits.visit(i)
                }
                if visits.all != Array(repeating: 1, count: n) { failures.wrappingAdd(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }

    /// Slow indices are stolen: one index that blocks until all the others ran cannot finish unless other
    /// participants took the rest of its range. With patience too: its owner's cursor stands still.
    @Test(arguments: [0, 50_000] as [UInt64])
    func slowIndexDoesNotHoldItsRange(patience: UInt64) {
        let pool = ForkJoinPool(spinNanoseconds: 100_000)
        pool.patienceNanoseconds = patience
        let n = 64
        let done = Atomic<Int>(0)
        let visits = Visits(n)
        pool.run(iterations: n, threads: 4) { i in
            if i == 0 {
                // Participant 0's range is 0..<16: the other 15 of it must be taken by others meanwhile.
                let deadline = Date().addingTimeInterval(10)
                while done.load(ordering: .acquiring) < n - 1 && Date() < deadline { usleep(100) }
            } else {
                done.wrappingAdd(1, ordering: .releasing)
            }
            visits.visit(i)
        }
        #expect(done.load(ordering: .acquiring) == n - 1)
        #expect(visits.all == Array(repeating: 1, count: n))
    }

    /// With patience, every index still runs once at any width, back to back and after the workers slept.
    @Test func patientPoolRunsEveryIndexOnce() {
        let pool = ForkJoinPool(spinNanoseconds: 20_000)
        pool.patienceNanoseconds = 3_000
        for round in 0..<300 {
            if round % 60 == 59 { usleep(1_000) }
            let n = round % 70
            let visits = Visits(n)
            pool.run(iterations: n, threads: 1 + round % 9) { visits.visit($0) }
            #expect(visits.all == Array(repeating: 1, count: n), "round \(round)")
        }
    }
}
