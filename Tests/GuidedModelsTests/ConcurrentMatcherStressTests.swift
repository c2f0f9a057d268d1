import Dispatch
import Foundation
import Synchronization
import Testing
import GuidedGrammar
import GuidedMask
import GuidedModels
import GuidedSchema
import GuidedTokenizers

/// Eight threads drive matchers over shared compiled grammars — states built lazily by whichever thread
/// reaches them first, one mask cache per grammar (one of them small enough to evict), grammars taken
/// from one `GrammarCompilationCache` by concurrent tasks — and every mask equals the one a single thread
/// computes on grammars of its own. Run under ThreadSanitizer by .ci/run (docs/reliability.md).
@Suite struct ConcurrentMatcherStressTests {
    static let threads = 8
    static let walksPerThread = 6
    static let steps = 40

    /// Every byte, JSON punctuation and words from the repository's prose corpus: multi-byte tokens that
    /// cross the boundaries of keys, strings and numbers.
    static let vocabulary: TokenVocabulary = {
        var tokens = (0..<256).map { [UInt8($0)] }
        var seen = Set(tokens)
        let pieces = ["{\"", "\":", "\": ", "\",", "\"}", "}", "},", "[", "]", ", ", "null", "true", "false",
                      "00", "12", "3.", ".5", "e-", "-0", "  ", "\n", "\n  ", "\\\"", "\\u00"]
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let prose = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Corpora/prose").path)) ?? []
        var words: [String] = []
        for file in prose.sorted() {
            let text = (try? String(contentsOf: root.appendingPathComponent("Corpora/prose/" + file), encoding: .utf8)) ?? ""
            words += text.split(whereSeparator: { !$0.isLetter }).map(String.init)
        }
        for w in pieces + words.flatMap({ [$0, " " + $0, "\"" + $0] }) where seen.insert(Array(w.utf8)).inserted {
            tokens.append(Array(w.utf8))
        }
        tokens.append(Array("</s>".utf8))
        return TokenVocabulary(tokens: tokens, specialTokenIDs: [tokens.count - 1], eosTokenIDs: [tokens.count - 1])
    }()

    static let schemas: [JSONValue] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let names = ["03-required-additional", "04-nested", "05-array-items", "06-pattern", "09-number-range", "10-anyof", "11-recursive-ref"]
        return names.compactMap { name in
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("Corpora/probes/\(name).json").path),
                  case .object(let probe)? = try? JSONParser.parse(bytes: [UInt8](data)) else { return nil }
            return probe["schema"]
        }
    }()

    /// One walk: the masks it sees (as hashes) along tokens picked from each mask by a seeded generator.
    static func walk(_ compiled: CompiledGrammar, seed: UInt64) throws -> [Int] {
        var matcher = GrammarMatcher(compiled)
        var rng = SplitMix64Generator(seed: seed)
        var mask: [UInt32] = []
        var hashes: [Int] = []
        let eos = compiled.vocabulary.vocabulary.eosTokenIDs
        for _ in 0..<steps {
            try matcher.fillNextTokenMask(into: &mask)
            hashes.append(mask.hashValue)
            var allowed: [Int] = []
            for (w, word) in mask.enumerated() {
                var bits = word
                while bits != 0 { allowed.append(w * 32 + bits.trailingZeroBitCount); bits &= bits - 1 }
            }
            allowed.removeAll(where: eos.contains)
            guard !allowed.isEmpty else { break }
            try matcher.accept(token: allowed[Int(rng.next() % UInt64(allowed.count))])
        }
        return hashes
    }

    /// The grammars of the schemas, compiled through `cache` by one task per schema at once, plus the
    /// first schema again with a mask cache small enough to evict.
    static func compileAll(_ cache: GrammarCompilationCache, _ index: VocabularyIndex) async throws -> [CompiledGrammar] {
        let grammars = try schemas.map { try cache.grammar(forSchema: $0, options: JSONSchemaCompileOptions()) }
        var compiled = try await withThrowingTaskGroup(of: (Int, CompiledGrammar).self) { group in
            for (i, g) in grammars.enumerated() {
                group.addTask { (i, try await cache.compiledGrammar(g, vocabulary: index)) }
                group.addTask { (i, try await cache.compiledGrammar(g, vocabulary: index)) }   // the same key, concurrently
            }
            var out = [CompiledGrammar?](repeating: nil, count: grammars.count)
            for try await (i, c) in group {
                if let earlier = out[i] { #expect(earlier === c) }   // one compilation per key
                out[i] = c
            }
            return out.map { $0! }
        }
        var small = MaskLimits()
        small.maxCacheBytes = 64 << 10
        compiled.append(try CompiledGrammar(grammars[0], vocabulary: index, limits: small))
        return compiled
    }

    @Test func eightThreadsSeeTheMasksOneThreadSees() async throws {
        #expect(Self.schemas.count == 7)
        let index = try VocabularyIndex(Self.vocabulary)
        // The single-threaded reference, on grammars of its own (their states are built by it alone).
        let reference = try await Self.compileAll(GrammarCompilationCache(), index)
        let expected: [[[Int]]] = try reference.map { g in
            try (0..<UInt64(Self.walksPerThread)).map { try Self.walk(g, seed: $0) }
        }
        // Eight threads on one set of fresh grammars, each thread taking the walks in its own order.
        let shared = try await Self.compileAll(GrammarCompilationCache(), index)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for k in 0..<(shared.count * Self.walksPerThread) {
                let job = (k + thread * 5) % (shared.count * Self.walksPerThread)
                let (g, seed) = (job / Self.walksPerThread, job % Self.walksPerThread)
                do {
                    let got = try Self.walk(shared[g], seed: UInt64(seed))
                    if got != expected[g][seed] { failures.withLock { $0.append("thread \(thread): grammar \(g), walk \(seed) saw other masks") } }
                } catch {
                    failures.withLock { $0.append("thread \(thread): grammar \(g), walk \(seed): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }
}
