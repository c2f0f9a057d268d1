import Foundation

/// Percentiles of mask times (microseconds), and small formatting helpers for `bench`.
struct BenchStats {
    let p50: Int, p90: Int, p99: Int, p999: Int, max: Int, mean: Int

    init(_ times: [Double]) {
        let sorted = times.sorted()
        func pct(_ p: Double) -> Int {
            guard !sorted.isEmpty else { return 0 }
            let i = Swift.min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))
            return Int(sorted[i].rounded())
        }
        p50 = pct(0.5); p90 = pct(0.9); p99 = pct(0.99); p999 = pct(0.999)
        max = Int((sorted.last ?? 0).rounded())
        mean = sorted.isEmpty ? 0 : Int((sorted.reduce(0, +) / Double(sorted.count)).rounded())
    }

    static func us(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1e6 + Double(c.attoseconds) / 1e12
    }

    static func ms(_ d: Duration) -> Int { Int((us(d) / 1000).rounded()) }

    /// CPU time of the calling thread in microseconds: unlike the wall clock it does not count time the
    /// thread spent descheduled, so on a shared, oversubscribed machine it measures the work of one core.
    static func threadCPUMicroseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
    }

    /// Peak resident set size (VmHWM) in KiB, from /proc/self/status; 0 where unavailable.
    static func peakRSSKiB() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
