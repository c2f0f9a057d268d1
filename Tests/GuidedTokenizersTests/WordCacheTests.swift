import Testing
@testable import GuidedTokenizers
import GuidedTestSupport

/// The per-encoder word cache returns exactly what was stored for exactly the same bytes, and nothing else.
@Suite(.enabled(if: SharedData.present(for: "WordCacheTests"))) struct WordCacheTests {
    static func lookup(_ cache: WordCache, _ word: [UInt8]) -> [Int]? {
        var out = [7] // existing ids stay in front
        let hit = word.withUnsafeBufferPointer { w in cache.lookup(WordCache.hash(w.baseAddress!, w.count), w.baseAddress!, w.count, into: &out) }
        return hit ? Array(out.dropFirst()) : nil
    }

    static func store(_ cache: WordCache, _ word: [UInt8], _ ids: [Int]) {
        word.withUnsafeBufferPointer { w in cache.store(WordCache.hash(w.baseAddress!, w.count), w.baseAddress!, w.count, ids: [99] + ids, from: 1) }
    }

    @Test func storesAndFindsExactWords() {
        let cache = WordCache()
        let word = Array("▁the".utf8)
        #expect(Self.lookup(cache, word) == nil)
        Self.store(cache, word, [1014])
        #expect(Self.lookup(cache, word) == [1014])
        #expect(Self.lookup(cache, Array("▁thf".utf8)) == nil)
        #expect(Self.lookup(cache, Array("▁th".utf8)) == nil)
    }

    @Test func aWordSharingASlotReplacesTheOld() {
        // Find two words that map to the same slot: the later one evicts the earlier, never answers for it.
        let slotOf = { (w: [UInt8]) in w.withUnsafeBufferPointer { Int(truncatingIfNeeded: WordCache.hash($0.baseAddress!, $0.count)) & (WordCache.slotCount - 1) } }
        let first = Array("w0".utf8)
        var second: [UInt8] = []
        for k in 1... {
            let candidate = Array("w\(k)".utf8)
            if slotOf(candidate) == slotOf(first) { second = candidate; break }
        }
        let cache = WordCache()
        Self.store(cache, first, [1, 2])
        Self.store(cache, second, [3])
        #expect(Self.lookup(cache, first) == nil)
        #expect(Self.lookup(cache, second) == [3])
    }

    @Test func tooManyIdsAreNotStored() {
        let cache = WordCache()
        let word = Array("abcdefghijklmnop".utf8)
        Self.store(cache, word, Array(0..<(WordCache.maxIDs + 1)))
        #expect(Self.lookup(cache, word) == nil)
        Self.store(cache, word, Array(0..<WordCache.maxIDs))
        #expect(Self.lookup(cache, word) == Array(0..<WordCache.maxIDs))
    }

    /// Encoding the fixtures a second time with a warm cache (and with no cache at all) gives the reference ids.
    @Test(arguments: ["qwen2.tiktoken", "mistral-7b-v0.1.model", "mistral-7b-v0.1.tokenizer.json"])
    func warmAndDisabledCachesAreExact(_ file: String) throws {
        let tokenizer = try LoadedTokenizers.named(file)
        let key = LoadedTokenizers.key(file)
        let warm = tokenizer.makeEncoder()
        for f in LoadedTokenizers.fixtures { _ = try warm.encode(f.text) }
        #expect(warm.scratch.wordCache != nil)
        let uncached = tokenizer.makeEncoder()
        uncached.scratch.cachesWords = false
        for f in LoadedTokenizers.fixtures.prefix(200) {
            #expect(try warm.encode(f.text) == f.ids[key], "\(f.text.debugDescription)")
            #expect(try uncached.encode(f.text) == f.ids[key], "\(f.text.debugDescription)")
        }
        #expect(uncached.scratch.wordCache == nil)
    }
}
