import Foundation
import GuidedGrammar
@testable import GuidedMask
import GuidedTestSupport
import GuidedTokenizers
import Testing

/// First visits walked in parts on several threads (`FirstVisitJob`) make the entry a walk on one thread
/// makes, field by field: the same accepted bits, the same uncertain tokens and tails in the same order,
/// dense in the same places. Along random paths every first visit is cut into parts (small parts, so
/// first-level subtrees are cut into their children too) and its entry made both ways; the entries made
/// in parts are the ones stored, and the masks equal those of a second compilation that walks on one
/// thread.
@Suite(.enabled(if: SharedData.present(for: "FirstVisitJobTests"))) struct FirstVisitJobTests {
    static let schema = #"""
        {"type": "object", "properties": {
            "name": {"type": "string"}, "host": {"type": "string", "format": "hostname"},
            "id": {"type": "string", "format": "uuid"}, "code": {"type": "string", "maxLength": 6},
            "n": {"type": "number"}, "kind": {"enum": ["alpha", "beta", "gamma", 7, null]},
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$"}}},
         "additionalProperties": {"type": "integer"}}
        """#

    /// (name, grammar, part size in nodes, threads, seed).
    static let cases: [(String, String, Int, Int, UInt64)] = [
        ("schema", "schema", 64, 4, 1), ("schema", "schema", 3_000, 1, 2), ("schema", "schema", 40_000, 3, 3),
        ("gap slice", #"root ::= "\"x-" [^"\\\x00-\x1F\u2028\u2029-]* ("-" [^"\\\x00-\x1F\u2028\u2029-]+){0,2} "\"""#, 500, 4, 4),
        // (Labels after a dot take `-` too: written `x ("." x)*`, the labels would be one copy of `x`
        // (`NFABuilder.buildSeparatedList`), and the few states of that one copy too few first visits.)
        ("class skip", #"root ::= "\"" [a-z0-9]+ ("." [a-z0-9-]+)* "\"""#, 500, 4, 5),
        ("block ends", "root ::= \"\\\"\" c{130,400} \"\\\"\"\nc ::= [^\"\\\\\\x00-\\x1F]", 2_000, 4, 6),
        ("json.gbnf", "file:json.gbnf", 200, 4, 7), ("sql-select.gbnf", "file:sql-select.gbnf", 1_000, 2, 8),
        ("csv.gbnf", "file:csv.gbnf", 1_000, 4, 9), ("arithmetic.gbnf", "file:arithmetic.gbnf", 300, 4, 10),
        ("json.gbnf, small limits", "file:json.gbnf", 64, 4, 13),
    ]

    /// Limits small enough that some walks pass them in total while each of their parts stays within them.
    static func limits(_ name: String) -> MaskLimits {
        var limits = MaskLimits()
        if name.hasSuffix("small limits") { limits.maxUncertainTokens = 200; limits.maxSuffixTokens = 200 }
        return limits
    }

    static func grammar(_ source: String) throws -> Grammar {
        if source == "schema" { return try JSONSchemaCompiler.compile(text: schema) }
        if source.hasPrefix("file:") {
            let url = SharedData.projectRoot.appendingPathComponent("Grammars").appendingPathComponent(String(source.dropFirst(5)))
            return try Grammar(gbnf: String(contentsOf: url, encoding: .utf8))
        }
        return try Grammar(gbnf: source)
    }

    @Test(arguments: cases.indices)
    func entriesFromPartsEqualOneWalk(_ c: Int) throws {
        let (name, source, partNodes, threads, seed) = Self.cases[c]
        let grammar = try Self.grammar(source)
        let index = SharedVocabularies.qwen2
        let limits = Self.limits(name)
        let one = try CompiledGrammar(grammar, vocabulary: index, limits: limits), parts = try CompiledGrammar(grammar, vocabulary: index, limits: limits)
        var a = GrammarMatcher(one), b = GrammarMatcher(parts)
        var rng = SplitMix64Generator(seed: seed)
        var jobs = 0, childParts = 0, gapJobs = 0, classJobs = 0, denseBySum = 0
        var maskA: [UInt32] = [], maskB: [UInt32] = []
        let eos = Set(index.vocabulary.eosTokenIDs)
        for step in 0..<160 {
            let spread = b.spreadFirstVisits(threads: threads, minNodes: 0, partNodes: partNodes)
            jobs += spread.count
            childParts += spread.reduce(0) { $0 + $1.parts.filter { $0.parent >= 0 }.count }
            gapJobs += spread.filter { $0.plan.views.count == 2 }.count
            classJobs += spread.filter { $0.plan.classSkip != nil }.count
            let made = FirstVisitJob.make(spread, threads: threads, store: false)
            for (job, entry) in zip(spread, made) {
                var plan = job.plan, scratch = b
                let found = scratch.walkEntry(&plan)
                let alone = parts.makeEntry(plan, found)
                #expect(Self.fields(entry) == Self.fields(alone), "\(name): step \(step), state \(plan.state)")
                if entry.isDense && !found.overflow { denseBySum += 1 }
            }
            FirstVisitJob.run(spread, threads: threads)
            try a.fillNextTokenMask(into: &maskA)
            try b.fillNextTokenMask(into: &maskB)
            #expect(maskA == maskB, "\(name): masks differ at step \(step)")
            // A random allowed token; the end only where nothing else is allowed.
            let allowed = MaskTestSupport.ids(in: maskA).filter { !eos.contains($0) }
            guard let token = allowed.randomElement(using: &rng) else { break }
            try a.accept(token: token)
            try b.accept(token: token)
        }
        // The walk was cut: some first visits became jobs, and first-level subtrees were cut below.
        #expect(jobs >= 3, "\(name): \(jobs) jobs")
        if partNodes <= 3_000 { #expect(childParts > 0, "\(name): no first-level subtree was cut into its children") }
        if name == "gap slice" { #expect(gapJobs > 0, "no job walked a gap slice's second trie") }
        if name.hasSuffix("small limits") { #expect(denseBySum > 0, "\(name): no walk passed the limits") }
        if name == "class skip" { #expect(classJobs > 0, "no job skipped the subtrees of a class") }
    }

    /// A batch of first visits on 4 threads, with the walks spread: every row equals the row the
    /// matcher fills alone (fresh grammars, so every row is a first visit, some large enough to spread).
    @Test func batchRowsWithSpreadFirstVisitsEqualSingleFills() throws {
        let index = SharedVocabularies.qwen2
        let grammars = try ["schema", "file:json.gbnf", "file:sql-select.gbnf", Self.cases[3].1].map(Self.grammar)
        var rng = SplitMix64Generator(seed: 11)
        var originals: [GrammarMatcher] = [], expected: [[UInt32]] = []
        var spreadRows = 0
        for k in 0..<24 {
            let g = grammars[k % grammars.count]
            var reference = GrammarMatcher(try CompiledGrammar(g, vocabulary: index))
            var fresh = GrammarMatcher(try CompiledGrammar(g, vocabulary: index))
            var mask: [UInt32] = [], path: [Int] = []
            for _ in 0..<(k % 7) {
                try reference.fillNextTokenMask(into: &mask)
                guard let t = MaskTestSupport.ids(in: mask).filter({ !index.vocabulary.eosTokenIDs.contains($0) }).randomElement(using: &rng) else { break }
                try reference.accept(token: t)
                try fresh.accept(token: t)
                path.append(t)
            }
            try reference.fillNextTokenMask(into: &mask)
            expected.append(mask)
            // Whether the batch will spread this row's first visit: asked of a third compilation.
            var probe = GrammarMatcher(try CompiledGrammar(g, vocabulary: index))
            for t in path { try probe.accept(token: t) }
            if !probe.spreadFirstVisits(threads: 4).isEmpty { spreadRows += 1 }
            originals.append(fresh)
        }
        #expect(spreadRows > 0, "no row needed a first visit large enough to spread")
        let words = index.maskWords
        var matchers = originals
        var masks = [UInt32](repeating: 0xFFFF_FFFF, count: matchers.count * words)
        let errors = masks.withUnsafeMutableBufferPointer {
            GrammarMatcher.fillNextTokenMasks(&matchers, into: $0, rowWords: words, threads: 4)
        }
        #expect(errors.allSatisfy { $0 == nil })
        for i in 0..<matchers.count {
            #expect(Array(masks[i * words..<(i + 1) * words]) == expected[i], "row \(i)")
        }
    }

    static func fields(_ e: MaskCacheEntry) -> [[UInt64]] {
        func words<T: BinaryInteger>(_ xs: some Sequence<T>) -> [UInt64] { xs.map { UInt64(truncatingIfNeeded: $0) } }
        func groups(_ g: SuffixGroups) -> [[UInt64]] {
            [g.tails, words(g.end), words(g.tokens), words(g.plainCharacters), words(g.plainEnd), g.plainPairs]
        }
        let slice: [UInt64] = e.slice.map { s in [UInt64(UInt(bitPattern: ObjectIdentifier(s).hashValue))] } ?? []
        return [[e.isDense ? 1 : 0, e.sliceMembers == nil ? 0 : 1], slice, words(e.acceptedWords), words(e.acceptedList), words(e.uncertain)]
            + groups(e.suffixes) + groups(e.sharedTails)
    }
}
