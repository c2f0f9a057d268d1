import Foundation
import GuidedTokenizers

/// `--bench`: load time, encode throughput over the fixture texts on one thread, memory of the vocabulary.
///
/// Times are given both as wall clock and as this thread's CPU time: the benchmark machine is shared, and
/// CPU time is what one core spends whatever else is running.
enum TokenizeBench {
    static func report(tokenizer: Tokenizer, fixtures: [TokenizeFixture], load: TokenizeTiming, rssDelta: Int, footprint: Int) {
        let totalBytes = fixtures.reduce(0) { $0 + $1.text.utf8.count }
        var passes = 0
        var tokens = 0
        let timing = TokenizeTiming.measure {
            // At least 3 passes and 2 s of CPU time.
            let startCPU = TokenizeTiming.threadCPUSeconds()
            while passes < 3 || TokenizeTiming.threadCPUSeconds() - startCPU < 2 {
                // A fresh encoder per pass: its word cache starts cold, so repeated passes over the same
                // texts measure one pass's hit rate, not a cache that already holds every word.
                let encoder = tokenizer.makeEncoder()
                for f in fixtures { tokens += (try? encoder.encode(f.text).count) ?? 0 }
                passes += 1
            }
        }
        let bytes = Double(totalBytes * passes)
        print("bench: load \(ms(load.cpu)) CPU, \(ms(load.wall)) wall")
        print("bench: encode \(String(format: "%.2f", bytes / timing.cpu / 1e6)) MB/s CPU, \(String(format: "%.2f", bytes / timing.wall / 1e6)) MB/s wall (\(passes) passes over \(totalBytes) bytes, \(tokens / passes) tokens per pass, one thread)")
        print("bench: memory of the loaded tokenizer: RSS delta \(String(format: "%.1f", Double(rssDelta) / 1_048_576)) MB, tables \(String(format: "%.1f", Double(footprint) / 1_048_576)) MB")
    }

    /// Builds the mask engine's token trie over the vocabulary: time, size, and RSS of tokenizer plus trie.
    static func reportTrie(vocabulary: TokenVocabulary, rssBefore: Int) {
        var trie: TokenTrie?
        var failure: TokenTrieError?
        let timing = TokenizeTiming.measure {
            do throws(TokenTrieError) { trie = try TokenTrie(vocabulary: vocabulary) } catch { failure = error }
        }
        TokenizeMemory.releaseFreedMemory()
        let rss = TokenizeMemory.residentBytes() - rssBefore
        if let trie {
            print("bench: token trie \(trie.nodes.count) nodes, \(String(format: "%.1f", Double(trie.memoryFootprint) / 1_048_576)) MB, built in \(ms(timing.cpu)) CPU; RSS delta of tokenizer + trie \(String(format: "%.1f", Double(rss) / 1_048_576)) MB")
        } else {
            print("bench: token trie failed: \(failure.map { "\($0)" } ?? "?")")
        }
        withExtendedLifetime(trie) {}
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
}

/// Wall-clock and thread CPU time of a piece of work.
struct TokenizeTiming {
    var wall: Double
    var cpu: Double

    static func measure(_ body: () throws -> Void) rethrows -> TokenizeTiming {
        let w0 = wallSeconds(), c0 = threadCPUSeconds()
        try body()
        return TokenizeTiming(wall: wallSeconds() - w0, cpu: threadCPUSeconds() - c0)
    }

    static func wallSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

enum TokenizeMemory {
    /// Gives freed heap pages back to the system (glibc), so the RSS delta counts what the tokenizer keeps,
    /// not the transient buffers of parsing.
    static func releaseFreedMemory() {
        // malloc_trim is glibc-only and not in Swift's Glibc module: look it up at run time.
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
    }

    /// Resident set size of this process (Linux `/proc/self/statm`), 0 when unknown.
    static func residentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = s.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
