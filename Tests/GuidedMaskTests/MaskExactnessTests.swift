import Foundation
import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

/// Real vocabularies from ../shared/vocab, indexed once for all exactness tests.
enum SharedVocabularies {
    static let qwen2: VocabularyIndex = {
        let tok = try! Tokenizer.load(path: SharedData.path("vocab/qwen2.tiktoken"), preset: .qwen2)
        return try! VocabularyIndex(tok.vocabulary)
    }()
    static let qwen2Tokenizer: Tokenizer = try! Tokenizer.load(path: SharedData.path("vocab/qwen2.tiktoken"), preset: .qwen2)
    static let mistral: VocabularyIndex = {
        let tok = try! Tokenizer.load(path: SharedData.path("vocab/mistral-7b-v0.1.model"))
        return try! VocabularyIndex(tok.vocabulary)
    }()

    static func index(_ name: String) -> VocabularyIndex { name == "qwen2" ? qwen2 : mistral }
}

/// The engine's masks against the brute-force reference (every token's bytes through
/// `ReferenceRecognizer`), on random walks over every grammar in Grammars/ and over generated grammars,
/// with the Qwen2 and Mistral vocabularies.
@Suite(.serialized, .enabled(if: SharedData.present(for: "MaskExactnessTests"))) struct MaskExactnessTests {
    static let grammarFiles: [String] = {
        let folder = SharedData.projectRoot.appendingPathComponent("Grammars")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".gbnf") }.sorted()
    }()

    static let cases: [(String, String)] = grammarFiles.flatMap { [($0, "qwen2"), ($0, "mistral")] }

    @Test func grammarsFolderIsNotEmpty() {
        #expect(Self.grammarFiles.count >= 7)
    }

    @Test(arguments: cases)
    func grammarFileRandomWalks(file: String, vocabulary: String) throws {
        let url = SharedData.projectRoot.appendingPathComponent("Grammars").appendingPathComponent(file)
        let grammar = try Grammar(gbnf: String(contentsOf: url, encoding: .utf8))
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.index(vocabulary))
        var rng = SplitMix64Generator(seed: UInt64(file.utf8.count * 31 + vocabulary.utf8.count))
        for _ in 0..<2 {
            try check.walk(steps: 5, rng: &rng, sample: 250, fullBudget: 2_500)
        }
        #expect(check.mismatches == [], "\(file) with \(vocabulary)")
        #expect(check.checks > 1_000)
    }

    @Test func jsonAlongCorpusInstances() throws {
        let url = SharedData.projectRoot.appendingPathComponent("Grammars/json.gbnf")
        let grammar = try Grammar(gbnf: String(contentsOf: url, encoding: .utf8))
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        let lines = try String(contentsOfFile: SharedData.path("corpora/json-instances.jsonl"), encoding: .utf8)
            .split(separator: "\n").prefix(400)
        var rng = SplitMix64Generator(seed: 42)
        for line in lines.shuffled(using: &rng).prefix(3) {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(String(line))
            try check.walk(steps: min(ids.count, 12), path: ids, rng: &rng, sample: 300)
        }
        #expect(check.mismatches == [])
    }

    /// Positions in short bounded strings take the exact-room slices (plain tokens up to the room, the
    /// longer ones rejected without a walk): their masks against the reference at every position.
    @Test func boundedStringsAlongInstances() throws {
        let schema = #"{"type":"object","properties":{"t":{"type":"string","maxLength":12},"u":{"type":"string","minLength":2,"maxLength":5},"v":{"type":"array","items":{"type":"string","maxLength":3}}},"required":["t","u"],"additionalProperties":false}"#
        let grammar = try JSONSchemaCompiler.compile(text: schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 12)
        for text in [#"{"t": "héllo wörld!", "u": "abcde", "v": ["ab", "", "xyz"]}"#, #"{"t": "a b", "u": "xy"}"#,
                     #"{"t": "日本語のテキスト", "u": "\n\"é"}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 20_000)
    }

    /// Format and pattern strings whose positions loop over a class of ASCII characters, counted or not
    /// (`ClassSlices`: the class's tokens at once, their subtrees skipped by the walk): email, hostname,
    /// uri and a counted pattern, their masks against the reference at every position.
    @Test func classStringsAlongInstances() throws {
        let schema = #"{"type":"object","properties":{"e":{"type":"string","format":"email"},"h":{"type":"string","format":"hostname"},"p":{"type":"string","pattern":"^[a-z0-9_-]{3,24}$"},"u":{"type":"string","format":"uri"}},"required":["e","h","p","u"],"additionalProperties":false}"#
        let grammar = try JSONSchemaCompiler.compile(text: schema)
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 29)
        for text in [#"{"e": "john.doe@example.com", "h": "ns1.example-host.org", "p": "abc_def-123", "u": "https://example.com/a/b?q=1"}"#,
                     #"{"e": "x_y+z@sub.domain.co", "h": "localhost", "p": "a-b", "u": "urn:isbn:0451450523"}"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 20_000)
        #expect(SharedVocabularies.qwen2.classSlices.setCount > 0, "no position took a class slice")
    }

    /// Regexes through the regex front end (whole match), over both vocabularies.
    static let regexes = [
        #"[a-z]+( [a-z]+)*"#, #""([^"\\]|\\.)*""#, #"-?(0|[1-9][0-9]*)(\.[0-9]+)?"#, #"(foo|bar){1,3}baz?"#,
        #".{2,5}x"#, #"中+é?[0-9a-f]{4}"#, #"[A-Z_][A-Za-z0-9_]{0,7}(, [A-Z_]+)*"#, #"(ab|a)*b\n?"#,
    ]

    @Test(arguments: regexes.indices)
    func regexGrammars(index: Int) throws {
        let pattern = Self.regexes[index]
        var rng = SplitMix64Generator(seed: UInt64(index) &* 104_729 &+ 3)
        let grammar = Grammar(root: try RegexLowering.compile(pattern))
        var check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.index(index % 2 == 0 ? "qwen2" : "mistral"))
        for _ in 0..<2 { try check.walk(steps: 5, rng: &rng, sample: 300) }
        #expect(check.mismatches == [], "regex \(pattern)")
    }

    @Test(arguments: 0..<12)
    func generatedGrammars(seed: Int) throws {
        var rng = SplitMix64Generator(seed: UInt64(seed) &* 7919 &+ 1)
        let grammar = GrammarGenerator.make(&rng)
        let vocabulary = seed % 2 == 0 ? "qwen2" : "mistral"
        let check: ReferenceMaskCheck
        do {
            check = try ReferenceMaskCheck(grammar: grammar, index: SharedVocabularies.index(vocabulary))
        } catch GrammarCompileError.emptyLanguage {
            return
        }
        var c = check
        for _ in 0..<2 { try c.walk(steps: 5, rng: &rng, sample: 300) }
        #expect(c.mismatches == [], "seed \(seed): \(grammar)")
    }
}

/// Random grammars over bytes that real tokens contain: regular parts (literals, classes including
/// multi-byte UTF-8 sequences, choices, bounded and unbounded repeats) and a recursive rule.
enum GrammarGenerator {
    static let literals = ["a", "ab", "the", " ", "\"", "{", "}", ",", "1", "23", "\u{00E9}", "\u{4E2D}\u{6587}", "\n", "<", "/>"]
    static let classes: [ByteSet] = [
        ByteSet(range: 0x61...0x7A), ByteSet(range: 0x30...0x39), ByteSet([0x20, 0x0A]),
        ByteSet(range: 0x41...0x5A), ByteSet(range: 0xC3...0xC3), ByteSet(range: 0x80...0xBF),
    ]

    static func make(_ rng: inout SplitMix64Generator) -> Grammar {
        var g = Grammar()
        let rec = g.declareRule(name: "rec")
        let root = expr(&rng, depth: 3, rec: rec)
        g.define(g.start, as: .sequence([root, .optional(.rule(rec))]))
        // rec ::= "(" body rec? ")" body   (recursive, never left-recursive)
        let body = expr(&rng, depth: 2, rec: nil)
        g.define(rec, as: .sequence([.literal("("), body, .optional(.rule(rec)), .literal(")"), body]))
        return g
    }

    static func expr(_ rng: inout SplitMix64Generator, depth: Int, rec: RuleID?) -> GrammarExpr {
        let k = depth == 0 ? Int.random(in: 0..<2, using: &rng) : Int.random(in: 0..<6, using: &rng)
        switch k {
        case 0: return .literal(literals.randomElement(using: &rng)!)
        case 1: return .byteSet(classes.randomElement(using: &rng)!)
        case 2: return .sequence((0..<Int.random(in: 2...3, using: &rng)).map { _ in expr(&rng, depth: depth - 1, rec: rec) })
        case 3: return .choice((0..<Int.random(in: 2...3, using: &rng)).map { _ in expr(&rng, depth: depth - 1, rec: rec) })
        case 4:
            let lo = Int.random(in: 0...2, using: &rng)
            let hi: Int? = Bool.random(using: &rng) ? nil : lo + Int.random(in: 0...3, using: &rng)
            return .repeat(expr(&rng, depth: depth - 1, rec: rec), min: lo, max: hi)
        default:
            if let rec { return .sequence([.literal("["), .optional(.rule(rec)), .literal("]")]) }
            return .literal("x")
        }
    }
}
