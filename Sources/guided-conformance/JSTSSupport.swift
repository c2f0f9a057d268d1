import Foundation
import GuidedCLI
import GuidedDecoding

/// Options shared by `jsts` and `maskbench`.
struct JSTSOptions {
    var directory = ""
    var vocabulary: VocabularyChoice
    var drafts: [String] = []
    var output: String? = nil
    var timeout: Double = 30
    var limit: Int? = nil
    /// `--strict-formats`: refuse formats no draft defines (`unknownFormats: .refuse`) instead of ignoring
    /// them as the drafts say (the default).
    var strictFormats = false
    /// Time masks and compiles by this thread's CPU time instead of the wall clock: on a shared machine
    /// it is the "one core" figure, not inflated by other processes.
    var cpuTime = false
    /// `--property-order sets|declared|any|any:N`: object members in any order with member sets kept by
    /// the mask engine (`.memberSets`, the default here), in declared order (the library's default for
    /// generation), or any order for objects of at most N (default `PropertyOrder.defaultMaxMembers`)
    /// candidate members.
    ///
    /// Conformance runs check that exactly the valid instances are accepted, and JSON Schema leaves
    /// member order free: the corpora's valid instances come in any order (MaskBench reordered them to
    /// llguidance's declared order only for the schemas llguidance compiles). `declared` measures the
    /// order the library generates in by default.
    var propertyOrder: JSONSchemaCompileOptions.PropertyOrder = .memberSets
    /// `--trace-slow US`: print on standard error the text fed so far whenever a mask takes longer, to find
    /// which grammar states make the slow tail.
    var traceSlowMaskUs: Double? = nil

    /// Why `--lenient-formats` is refused: what it asked for is the default since issue 29, and what it also
    /// did (ignore `regex` and `uri-template`, which let invalid MaskBench instances through) is gone.
    static let lenientFormatsRetired = "--lenient-formats is retired: formats no draft defines are ignored by default "
        + "(the drafts' rule), every defined format is enforced or refused by name; --strict-formats refuses undefined ones"

    /// Why `--property-order flexible` is refused: member sets (the default) accept every order it accepted
    /// and more (on maskbench-dev every file it passed passes with sets, 43 more besides).
    static let flexibleOrderRetired = "--property-order flexible is retired: sets (the default) accepts members in every order, "
        + "the two flexible ones among them; declared keeps the schema's order for generation"

    /// The options both commands take; `jsts` adds `--draft`, `maskbench` `--output`, `--timeout`, `--limit`.
    static let sharedOptions = [
        OptionSpec("--vocab", value: "FILE", help: "vocabulary: .tiktoken, tokenizer.json or SentencePiece .model (required)"),
        OptionSpec("--preset", value: "NAME", help: "pre-tokenizer of a .tiktoken file: \(VocabularyChoice.presetNames.joined(separator: ", ")) (inferred from qwen2*/qwen3.6* names)"),
        OptionSpec("--property-order", value: "ORDER", help: "object members: sets (default), declared, any or any:N (flexible is retired)"),
        OptionSpec.flag("--strict-formats", help: "refuse formats no draft defines instead of ignoring them (the drafts' rule, the default)"),
        OptionSpec.flag("--lenient-formats", help: "retired: formats no draft defines are ignored by default; exits 2 saying so"),
        OptionSpec.flag("--cpu-time", help: "time by this thread's CPU time instead of the wall clock"),
        OptionSpec("--trace-slow", value: "US", help: "print on stderr the text fed so far whenever a mask takes longer than US microseconds"),
    ]

    init(_ p: ParsedArguments) throws(UsageError) {
        if p.has("--lenient-formats") { throw UsageError(JSTSOptions.lenientFormatsRetired) }
        directory = p.positionals.first ?? ""
        vocabulary = try VocabularyChoice(path: try p.required("--vocab"), presetName: p.string("--preset"))
        drafts = p.strings("--draft")
        output = p.string("--output")
        timeout = try p.double("--timeout", above: 0) ?? timeout
        limit = try p.int("--limit", in: 1...Int.max)
        strictFormats = p.has("--strict-formats")
        cpuTime = p.has("--cpu-time")
        traceSlowMaskUs = try p.double("--trace-slow", atLeast: 0)
        if let v = p.string("--property-order") {
            if v == "declared" {
                propertyOrder = .declared
            } else if v == "flexible" {
                throw UsageError(JSTSOptions.flexibleOrderRetired)
            } else if v == "sets" {
                propertyOrder = .memberSets
            } else if v == "any" {
                propertyOrder = .anyOrder(maxMembers: JSONSchemaCompileOptions.PropertyOrder.defaultMaxMembers)
            } else if v.hasPrefix("any:"), let n = Int(v.dropFirst(4)), n >= 0 {
                propertyOrder = .anyOrder(maxMembers: n)
            } else {
                throw .badValue(v, for: "--property-order", expected: "sets, declared, any or any:N (N = maxMembers)")
            }
        }
    }

    /// The `--property-order` value that selects `propertyOrder`.
    var propertyOrderName: String {
        switch propertyOrder {
        case .declared: return "declared"
        case .memberSets: return "sets"
        case .anyOrder(let n): return "any:\(n)"
        }
    }

    /// The compile options these flags ask for.
    func compileOptions(defaultDraft: JSONSchemaDraft = .draft2020_12) -> JSONSchemaCompileOptions {
        var options = JSONSchemaCompileOptions(propertyOrder: propertyOrder, defaultDraft: defaultDraft)
        options.unknownFormats = strictFormats ? .refuse : .ignore
        return options
    }

    /// Padded to the model's logits width for a preset's full vocabulary (Qwen2: 151,936), as a model's
    /// masks are.
    func loadTokenizer() throws -> Tokenizer {
        try InputError.requireDirectory(directory)
        return try vocabulary.load(pad: true)
    }
}

/// What `jsts` and `maskbench` start from: their options (with the clock chosen), the tokenizer and its
/// index for masking.
struct CorpusRun {
    let options: JSTSOptions
    let tokenizer: Tokenizer
    let index: VocabularyIndex

    /// Parses the options and loads the vocabulary; throws a `UsageError` or an error in words.
    static func prepare(_ p: ParsedArguments) throws -> CorpusRun {
        let o = try JSTSOptions(p)
        JSTSFeeder.useThreadCPUTime = o.cpuTime
        JSTSFeeder.traceSlowMaskUs = o.traceSlowMaskUs
        let tokenizer = try o.loadTokenizer()
        return CorpusRun(options: o, tokenizer: tokenizer, index: try VocabularyIndex(tokenizer.vocabulary))
    }
}

/// Feeds a token sequence through a matcher MaskBench-style: compute the mask, check the token is in
/// it, commit it; at the end the mask must allow stopping. Mask times are appended in microseconds.
enum JSTSFeeder {
    /// Set once from `--cpu-time` before any measurement.
    nonisolated(unsafe) static var useThreadCPUTime = false
    /// Set once from `--trace-slow` before any measurement.
    nonisolated(unsafe) static var traceSlowMaskUs: Double? = nil

    static func now() -> UInt64 {
        if useThreadCPUTime {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
        }
        return DispatchTime.now().uptimeNanoseconds
    }

    /// Whether the whole sequence is accepted and may end there.
    static func accepts(_ compiled: CompiledGrammar, tokens: [Int], mask: inout [UInt32], times: inout [Double],
                        firstMaskTime: inout Double?) -> Bool {
        var m = GrammarMatcher(compiled)
        func timedMask() -> Bool {
            let t0 = now()
            do { try m.fillNextTokenMask(into: &mask) } catch { return false }
            let us = Double(now() - t0) / 1000
            if firstMaskTime == nil { firstMaskTime = us }
            times.append(us)
            if let limit = traceSlowMaskUs, us > limit {
                traceSlow(us: us, fed: tokens.prefix(fed), mask: mask, vocabulary: compiled.vocabulary.vocabulary)
            }
            return true
        }
        var fed = 0
        for t in tokens {
            defer { fed += 1 }
            guard timedMask() else { return false }
            guard t >= 0, t / 32 < mask.count, mask[t / 32] >> UInt32(t % 32) & 1 == 1 else { return false }
            do { try m.accept(token: t) } catch { return false }
        }
        guard timedMask() else { return false }
        let eos = compiled.vocabulary.vocabulary.eosTokenIDs
        if eos.isEmpty { return m.canTerminate }
        return eos.contains { $0 / 32 < mask.count && mask[$0 / 32] >> UInt32($0 % 32) & 1 == 1 } && m.canTerminate
    }

    /// One line: the mask's time, how many tokens it allows, and the last 70 bytes of text fed before it
    /// (rebuilt only when a slow mask is reported, so untraced runs pay nothing).
    private static func traceSlow(us: Double, fed: ArraySlice<Int>, mask: [UInt32], vocabulary: TokenVocabulary) {
        var allowed = 0
        for w in mask { allowed += w.nonzeroBitCount }
        var text: [UInt8] = []
        for t in fed.suffix(70) { text += vocabulary.tokenBytes(t) }
        let tail = String(decoding: text.suffix(70), as: UTF8.self)
        FileHandleOutput.standardError("slow mask: \(format(us)) us, \(allowed) tokens allowed, after …\(tail.debugDescription)\n")
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let i = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[i]
    }

    static func format(_ x: Double) -> String { String(Int(x.rounded())) }
}
