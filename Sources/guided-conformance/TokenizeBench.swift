import Foundation
import GuidedTokenizers

/// `--bench`: load time, encode throughput over the fixture texts on one thread, memory of the vocabulary.
enum TokenizeBench {
    static func report(tokenizer: Tokenizer, fixtures: [TokenizeFixture], loadTime: Duration, rssDelta: Int) {
        let encoder = tokenizer.makeEncoder()
        let totalBytes = fixtures.reduce(0) { $0 + $1.text.utf8.count }
        let clock = ContinuousClock()
        var passes = 0
        var tokens = 0
        let start = clock.now
        // At least 3 passes and 2 seconds.
        while passes < 3 || clock.now - start < .seconds(2) {
            for f in fixtures { tokens += (try? encoder.encode(f.text).count) ?? 0 }
            passes += 1
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let mbps = Double(totalBytes * passes) / seconds / 1_000_000
        print("bench: load \(format(loadTime))")
        print("bench: encode \(String(format: "%.2f", mbps)) MB/s (\(passes) passes over \(totalBytes) bytes, \(tokens / passes) tokens per pass, one thread)")
        print("bench: memory of the loaded tokenizer (RSS delta) \(String(format: "%.1f", Double(rssDelta) / 1_048_576)) MB")
    }

    static func format(_ d: Duration) -> String {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return String(format: "%.1f ms", ms)
    }
}

enum TokenizeMemory {
    /// Resident set size of this process (Linux `/proc/self/statm`), 0 when unknown.
    static func residentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = s.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
