import Foundation
import GuidedCLI
import GuidedSchema
import GuidedTokenizers

/// `guided-conformance tokenize`: encodes every fixture text with a vocabulary, compares with the reference
/// ids, decodes back, and optionally benchmarks loading and encoding.
///
/// The last line is exactly `tokenize: <matched>/<total> exact`; the exit status is 0 only when all match.
enum TokenizeCommand {
    static let spec = CommandSpec(
        name: "guided-conformance tokenize",
        summary: "Encodes every fixture text with a vocabulary and compares with the reference ids; decodes back.",
        options: TokenizeOptions.options,
        exitCodes: [(0, "every fixture encoded exactly"),
                    (1, "a fixture differed, or an input could not be read"),
                    (2, "usage error: a bad option or value (nothing was run)")],
        notes: ["The last line reads `tokenize: <matched>/<total> exact`."])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in try tokenize(TokenizeOptions(p)) }
    }

    private static func tokenize(_ options: TokenizeOptions) throws -> Int32 {
        try InputError.requireFile(options.vocab)
        try InputError.requireFile(options.fixtures)
        let rssBefore = TokenizeMemory.residentBytes()
        var loaded: Result<Tokenizer, TokenizerError>!
        let loadTime = TokenizeTiming.measure {
            loaded = Result { () throws(TokenizerError) in
                try Tokenizer.load(path: options.vocab, preset: options.preset, pattern: options.pattern,
                                   vocabularySize: options.vocabularySize)
            }
        }
        let tokenizer = try loaded!.get()
        TokenizeMemory.releaseFreedMemory()
        let rssAfter = TokenizeMemory.residentBytes()

        let fixtures = try TokenizeFixture.load(path: options.fixtures, key: options.key)
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
