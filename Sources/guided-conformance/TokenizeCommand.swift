import Foundation
import GuidedSchema
import GuidedTokenizers

/// `guided-conformance tokenize`: encodes every fixture text with a vocabulary, compares with the reference
/// ids, decodes back, and optionally benchmarks loading and encoding.
///
/// The last line is exactly `tokenize: <matched>/<total> exact`; the exit status is 0 only when all match.
enum TokenizeCommand {
    static let usage = """
    usage: guided-conformance tokenize --vocab FILE [--fixtures FILE] --key NAME
                                       [--preset qwen2|qwen3.6] [--pattern REGEX] [--vocab-size N] [--bench]
      --vocab       a .tiktoken, tokenizer.json or SentencePiece .model file
      --fixtures    JSON lines {"text": ..., NAME: [ids]} (default: encode-fixtures.jsonl beside the vocabulary)
      --key         which reference ids to compare with
      --preset      tiktoken pre-tokenizer regex and special tokens of a known model
      --pattern     tiktoken pre-tokenizer regex (overrides the preset's)
      --bench       report load time, encode throughput and memory of the loaded vocabulary
    """

    static func run(_ args: [String]) -> Int32 {
        let options: TokenizeOptions
        do {
            options = try TokenizeOptions.parse(args)
        } catch {
            FileHandleOutput.standardError("guided-conformance tokenize: \(error.message)\n\n\(usage)\n")
            return 2
        }
        let rssBefore = TokenizeMemory.residentBytes()
        var loaded: Result<Tokenizer, TokenizerError>!
        let loadTime = TokenizeTiming.measure {
            loaded = Result { () throws(TokenizerError) in
                try Tokenizer.load(path: options.vocab, preset: options.preset, pattern: options.pattern,
                                   vocabularySize: options.vocabularySize)
            }
        }
        let tokenizer: Tokenizer
        switch loaded! {
        case .success(let t): tokenizer = t
        case .failure(let error):
            FileHandleOutput.standardError("guided-conformance tokenize: \(error)\n")
            return 1
        }
        TokenizeMemory.releaseFreedMemory()
        let rssAfter = TokenizeMemory.residentBytes()

        let fixtures: [TokenizeFixture]
        do {
            fixtures = try TokenizeFixture.load(path: options.fixtures, key: options.key)
        } catch {
            FileHandleOutput.standardError("guided-conformance tokenize: \(error.message)\n")
            return 1
        }
        let v = tokenizer.vocabulary
        print("vocab: \(options.vocab) (\(tokenizer.format.rawValue), \(v.tokenCount) tokens, size \(v.size), \(v.specialTokenIDs.count) special, EOS \(v.eosTokenIDs))")
        print("fixtures: \(options.fixtures) key \(options.key), \(fixtures.count) texts")

        let encoder = tokenizer.makeEncoder()
        var matched = 0
        var roundTrips = 0
        var shown = 0
        for (index, fixture) in fixtures.enumerated() {
            let ids: [Int]
            do {
                ids = try encoder.encode(fixture.text)
            } catch {
                print("fixture \(index + 1): encode failed: \(error)")
                continue
            }
            if ids == fixture.ids {
                matched += 1
            } else if shown < 10 {
                shown += 1
                print("mismatch at fixture \(index + 1): \(TokenizeFixture.preview(fixture.text))")
                print("  expected \(fixture.ids.prefix(40))")
                print("  got      \(ids.prefix(40))")
            }
            if tokenizer.decode(ids) == Array(fixture.text.utf8) { roundTrips += 1 }
        }
        print("round trips: \(roundTrips)/\(fixtures.count) decode(encode(text)) == text")

        if options.bench {
            TokenizeBench.reportTrie(vocabulary: tokenizer.vocabulary, rssBefore: rssBefore)
            TokenizeBench.report(tokenizer: tokenizer, fixtures: fixtures, load: loadTime,
                                 rssDelta: rssAfter - rssBefore, footprint: tokenizer.memoryFootprint)
        }
        print("tokenize: \(matched)/\(fixtures.count) exact")
        return matched == fixtures.count ? 0 : 1
    }
}
