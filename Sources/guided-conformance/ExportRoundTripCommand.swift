import Foundation
import GuidedCLI
import GuidedDecoding

/// `guided-conformance export-roundtrip DIR`: every JSON Schema of a corpus (files `{"schema": …}` or bare
/// schemas) compiled in declared order, written as GBNF, XGrammar EBNF and Lark, read back, and the two
/// grammars compared on at least N strings each (`GrammarDifferential`: sentences of both and near misses,
/// judged by the reference recognizer). A schema the compiler refuses is counted, not failed.
enum ExportRoundTripCommand {
    static let spec = CommandSpec(
        name: "guided-conformance export-roundtrip",
        summary: "Compile each schema of a corpus, export it as GBNF, EBNF and Lark, read it back, compare the languages.",
        positionals: [PositionalSpec("DIR", help: "a folder of JSON Schema files (e.g. ../shared/corpora/maskbench-dev)")],
        options: [
            OptionSpec("--strings", value: "N", help: "distinct strings compared per schema and format (default 1000)"),
            OptionSpec("--every", value: "K", help: "only every K-th file, in name order (default 1: all)"),
            OptionSpec("--shard", value: "I/N", help: "only the files whose index in name order is I modulo N (to spread a run over processes)"),
            OptionSpec("--formats", value: "LIST", help: "comma-separated formats among gbnf, ebnf, lark (default all three)"),
        ],
        exitCodes: [(0, "every exported grammar that was written agrees with its schema's grammar"),
                    (1, "a disagreement, or an exported text that could not be read back"),
                    (2, "usage error, or DIR unreadable")],
        notes: ["Prints one line per failure and a summary per format; export refusals are counted by kind."])

    struct Tally {
        var agreed = 0
        var refused: [String: Int] = [:]
        var unreadable = 0
        var notCompared = 0
        var disagreed = 0
        var strings = 0
        var fewestStrings = Int.max
        /// Time spent writing the texts (the export alone), and the slowest one.
        var exportTime = Duration.zero
        var slowestExport = (Duration.zero, "")
    }

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in
            let directory = p.positionals[0]
            let target = try p.int("--strings", in: 1...1_000_000) ?? 1000
            let every = try p.int("--every", in: 1...1_000_000) ?? 1
            var formats = GrammarTextFormat.allCases
            if let list = p.string("--formats") {
                formats = []
                for name in list.split(separator: ",") {
                    guard let f = GrammarTextFormat(rawValue: String(name)) else {
                        throw UsageError.badValue(list, for: "--formats", expected: "gbnf, ebnf and/or lark, comma-separated")
                    }
                    formats.append(f)
                }
            }
            var shard = (index: 0, count: 1)
            if let text = p.string("--shard") {
                let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
                guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, (0..<n).contains(i) else {
                    throw UsageError.badValue(text, for: "--shard", expected: "I/N with 0 ≤ I < N")
                }
                shard = (i, n)
            }
            try InputError.requireDirectory(directory)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
            var tallies = [GrammarTextFormat: Tally]()
            var schemas = 0, compiled = 0
            let clock = ContinuousClock()
            let started = clock.now
            for (n, name) in names.enumerated() where n % every == 0 && n % shard.count == shard.index {
                schemas += 1
                if schemas % 100 == 0 { Console.standardError("export-roundtrip: \(schemas) schemas…\n") }
                guard let data = FileManager.default.contents(atPath: directory + "/" + name),
                      let document = try? JSONParser.parse(bytes: Array(data)) else { continue }
                let schema = document["schema"] ?? document
                guard let grammar = try? JSONSchemaCompiler.compile(schema) else { continue }
                compiled += 1
                let schemaStart = clock.now
                defer {
                    let spent = clock.now - schemaStart
                    if spent > .seconds(5) { print("\(name): \(spent.components.seconds) s (slow)") }
                }
                for format in formats {
                    var t = tallies[format] ?? Tally()
                    defer { tallies[format] = t }
                    let exported: GrammarExport
                    let exportStart = clock.now
                    let result = Result { () throws(GrammarExportError) in try grammar.exported(as: format) }
                    let spent = clock.now - exportStart
                    t.exportTime += spent
                    if spent > t.slowestExport.0 { t.slowestExport = (spent, name) }
                    do throws(GrammarExportError) { exported = try result.get() } catch {
                        t.refused[String(describing: error.kind), default: 0] += 1
                        print("\(name) \(format): export refused: \(error)")
                        continue
                    }
                    let back: Grammar
                    do { back = try read(exported.text, format) } catch {
                        t.unreadable += 1
                        print("\(name) \(format): the exported text does not read back: \(error)")
                        continue
                    }
                    do {
                        let report = try GrammarDifferential.compare(grammar, back, strings: target, seed: UInt64(n + 1))
                        t.strings += report.strings
                        t.fewestStrings = min(t.fewestStrings, report.strings)
                        if report.strings < target { print("\(name) \(format): only \(report.strings) distinct strings") }
                        if report.agrees {
                            t.agreed += 1
                        } else {
                            t.disagreed += 1
                            let e = report.disagreements[0]
                            print("\(name) \(format): \(report.disagreementCount) disagreements of \(report.strings), e.g. "
                                + "\(String(decoding: e.text, as: UTF8.self).debugDescription) accepted by the "
                                + (e.acceptedByFirst ? "schema's grammar only" : "exported grammar only"))
                        }
                    } catch {
                        // The oracle's own limits (a lower bound past 100,000, a grammar past its size): exported, not compared.
                        t.notCompared += 1
                        print("\(name) \(format): not compared: the reference recognizer refuses the grammar: \(error)")
                    }
                }
            }
            let seconds = Double((clock.now - started).components.seconds)
            print("export-roundtrip: \(schemas) schemas, \(compiled) compile in declared order, \(Int(seconds)) s")
            var failed = false
            for format in formats {
                let t = tallies[format] ?? Tally()
                let refused = t.refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                print("  \(format): \(t.agreed) agree, \(t.disagreed) disagree, \(t.unreadable) unreadable, \(t.notCompared) not compared, export refused "
                    + "\(t.refused.values.reduce(0, +))\(refused.isEmpty ? "" : " (\(refused))"); \(t.strings) strings, "
                    + "fewest per schema \(t.fewestStrings == Int.max ? 0 : t.fewestStrings); export \(milliseconds(t.exportTime)) ms "
                    + "in all, slowest \(milliseconds(t.slowestExport.0)) ms (\(t.slowestExport.1))")
                if t.disagreed > 0 || t.unreadable > 0 { failed = true }
            }
            return failed ? 1 : 0
        }
    }

    static func milliseconds(_ d: Duration) -> String {
        String(format: "%.1f", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
    }

    static func read(_ text: String, _ format: GrammarTextFormat) throws -> Grammar {
        switch format {
        case .gbnf: return try Grammar(gbnf: text)
        case .ebnf: return try Grammar(ebnf: text)
        case .lark: return try Grammar(lark: text)
        }
    }
}
