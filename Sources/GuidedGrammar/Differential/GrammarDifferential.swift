/// Two grammars that should have one language, asked about the same strings: random sentences of each
/// (`SentenceSampler`) and near misses of them, each string judged by both grammars'
/// `ReferenceRecognizer`s. Used to check that an exported grammar, read back, accepts exactly what the
/// original accepts.
public enum GrammarDifferential {
    public struct Report: Sendable {
        /// Distinct strings asked about.
        public var strings: Int
        /// Strings both grammars accept.
        public var acceptedByBoth: Int
        /// Strings one grammar accepts and the other does not, with which one accepts them (first 20).
        public var disagreements: [(text: [UInt8], acceptedByFirst: Bool)]
        public var disagreementCount: Int
        public var agrees: Bool { disagreementCount == 0 }
    }

    /// Compares `first` and `second` on at least `strings` distinct strings (fewer only when the two
    /// languages and their near misses hold fewer within the sampler's budgets). A grammar whose shortest
    /// sentence is longer than `maximumSentence` bytes contributes no sentences, only random text: the
    /// reference recognizers are cubic at worst, and a fuzz input like `[0-9]{1,}{2,}…{2,}` (shortest
    /// sentence 2^16 bytes) would spend seconds on each string. With `maximumItems`, each grammar's
    /// recognizer may take that many Earley items over all the strings, else the comparison ends with
    /// `.workLimitExceeded`: the bound a caller that must answer in bounded time (a fuzz target) sets.
    public static func compare(_ first: Grammar, _ second: Grammar, strings target: Int = 1000, seed: UInt64 = 1,
                               budget: Int = 48,
                               maximumSentence: Int = SentenceSampler.maximumShortestSentence,
                               maximumItems: Int? = nil) throws(ReferenceRecognizerError) -> Report {
        // Membership of strings of at most `maximumRepeatBound` bytes is exact even for grammars with
        // larger upper bounds (`maxLength: 1000000`); longer strings are not asked about.
        let a = try ReferenceRecognizer(forMembershipOfShortStrings: first)
        let b = try ReferenceRecognizer(forMembershipOfShortStrings: second)
        var rng = DifferentialGenerator(seed: seed)
        let samplers = [SentenceSampler(first), SentenceSampler(second)]
        let palette = Self.palette(first) + Self.palette(second)
        var seen: Set<[UInt8]> = [[]]
        var strings: [[UInt8]] = [[]]
        var attempts = 0
        while strings.count < target && attempts < target * 20 {
            attempts += 1
            let sampler = samplers[attempts % 2]
            let size = [4, 12, budget, budget * 2][Int.random(in: 0..<4, using: &rng)]
            guard (sampler.shortestSentenceLength ?? 0) <= maximumSentence,
                  let s = sampler.sentence(using: &rng, budget: size) else {
                // An empty language still gets its near misses of random text.
                let noise = (0..<Int.random(in: 1...8, using: &rng)).map { _ in palette.randomElement(using: &rng) ?? 0x61 }
                if seen.insert(noise).inserted { strings.append(noise) }
                continue
            }
            if seen.insert(s).inserted { strings.append(s) }
            for t in SentenceSampler.nearMisses(of: s, count: 3, palette: palette, using: &rng) where seen.insert(t).inserted {
                strings.append(t)
            }
        }
        strings.removeAll { $0.count > ReferenceRecognizer.maximumRepeatBound }
        let left = try a.acceptsEach(strings, maximumItems: maximumItems ?? .max)
        let right = try b.acceptsEach(strings, maximumItems: maximumItems ?? .max)
        var report = Report(strings: strings.count, acceptedByBoth: 0, disagreements: [], disagreementCount: 0)
        for k in strings.indices {
            if left[k] && right[k] { report.acceptedByBoth += 1 }
            if left[k] != right[k] {
                report.disagreementCount += 1
                if report.disagreements.count < 20 { report.disagreements.append((strings[k], left[k])) }
            }
        }
        return report
    }

    /// Bytes worth inserting: the grammar's literal bytes and one member of each byte set, plus JSON
    /// punctuation, white space, a multi-byte lead and a byte no UTF-8 text has.
    static func palette(_ g: Grammar) -> [UInt8] {
        var bytes = Set<UInt8>(Array("{}[]\",:0 a\\\n-.e".utf8) + [0xC3, 0xA9, 0xFF])
        func visit(_ e: GrammarExpr) {
            switch e {
            case .bytes(let b): bytes.formUnion(b.prefix(8))
            case .byteSet(let s):
                if let lo = s.lowest { bytes.insert(lo) }
                if let hi = s.members.last { bytes.insert(hi) }
            case .sequence(let p), .choice(let p): p.forEach(visit)
            case .repeat(let e, _, _): visit(e)
            case .tokenBudget(let body, _, let then): visit(body); visit(then)
            case .empty, .nothing, .rule, .token: break
            }
        }
        for r in g.rules.prefix(2000) { visit(r.body) }
        return bytes.sorted()
    }
}

/// SplitMix64: a small seeded generator, so a differential run is reproducible.
struct DifferentialGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
