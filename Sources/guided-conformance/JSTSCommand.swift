import Foundation
import GuidedCLI
import GuidedDecoding

/// `guided-conformance jsts DIR --vocab FILE [--preset qwen2] [--draft NAME]...`: the JSON Schema Test
/// Suite through the schema compiler and the mask engine. Per test: compile the schema, serialize `data`
/// compactly, feed it token by token. A valid instance must be accepted to the end with stopping
/// allowed; an invalid one must be rejected or not allowed to stop; a refused schema counts as refused.
enum JSTSCommand {
    struct Counts {
        var total = 0, passed = 0, refused = 0, falseNegatives = 0, falsePositives = 0
        mutating func add(_ o: Counts) {
            total += o.total; passed += o.passed; refused += o.refused
            falseNegatives += o.falseNegatives; falsePositives += o.falsePositives
        }
        var line: String { "\(passed)/\(total) passed, \(refused) refused, \(falseNegatives) false negatives, \(falsePositives) false positives" }
    }

    static let spec = CommandSpec(
        name: "guided-conformance jsts",
        summary: "The JSON Schema Test Suite through the schema compiler and the mask engine.",
        positionals: [PositionalSpec("DIR", help: "the suite's tests/ folder (draft4 ... draft2020-12 inside)")],
        options: JSTSOptions.sharedOptions
            + [OptionSpec("--draft", value: "NAME", help: "only this draft folder, e.g. draft2020-12 (default: every one present)", repeats: true)],
        exitCodes: [(0, "no invalid instance was accepted (no false positives)"),
                    (1, "a false positive, or an input could not be read"),
                    (2, "usage error: a bad option or value (nothing was run)")])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec, body: body)
    }

    static func body(_ p: ParsedArguments) throws -> Int32 {
        let run = try CorpusRun.prepare(p)
        let o = run.options, tokenizer = run.tokenizer, index = run.index
        let encoder = tokenizer.makeEncoder()
        var mask = [UInt32](repeating: 0, count: index.maskWords)
        let fm = FileManager.default
        let drafts = o.drafts.isEmpty
            ? ["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"].filter { fm.fileExists(atPath: o.directory + "/" + $0) }
            : o.drafts
        var required = Counts(), optional = Counts()
        for draftName in drafts {
            guard let draft = JSONSchemaDraft(rawValue: draftName) else {
                throw UsageError.badValue(draftName, for: "--draft", expected: "one of " + JSONSchemaDraft.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let root = URL(fileURLWithPath: o.directory).appendingPathComponent(draftName)
            let files = (fm.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
                .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
            var draftRequired = Counts(), draftOptional = Counts()
            let options = o.compileOptions(defaultDraft: draft)
            for file in files {
                let relative = String(file.path.dropFirst(root.path.count + 1))
                let isOptional = relative.hasPrefix("optional/")
                var c = Counts()
                guard let text = try? String(contentsOf: file, encoding: .utf8), case .array(let groups)? = try? JSONParser.parse(text) else {
                    FileHandleOutput.standardError("guided-conformance jsts: cannot read \(file.path)\n"); continue
                }
                for group in groups {
                    guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                    var compiled: CompiledGrammar? = nil
                    var emptyLanguage = false
                    do {
                        let g = try JSONSchemaCompiler.compile(schema, options: options)
                        do { compiled = try CompiledGrammar(g, vocabulary: index) } catch {
                            if error == .emptyLanguage { emptyLanguage = true }
                        }
                    } catch {}
                    for test in tests {
                        guard let data = test["data"], case .bool(let valid)? = test["valid"] else { continue }
                        c.total += 1
                        guard compiled != nil || emptyLanguage else { c.refused += 1; continue }
                        var accepted = false
                        if let compiled, let tokens = try? encoder.encodeContinuation(data.serialized(.compact)) {
                            var times: [Double] = []
                            var first: Double? = nil
                            accepted = JSTSFeeder.accepts(compiled, tokens: tokens, mask: &mask, times: &times, firstMaskTime: &first)
                        }
                        if accepted == valid { c.passed += 1 } else if valid { c.falseNegatives += 1 } else { c.falsePositives += 1 }
                    }
                }
                print("\(draftName)/\(relative): \(c.line)")
                if isOptional { draftOptional.add(c) } else { draftRequired.add(c) }
            }
            print("\(draftName) required: \(draftRequired.line)")
            print("\(draftName) optional: \(draftOptional.line)")
            required.add(draftRequired)
            optional.add(draftOptional)
        }
        print("property order: \(run.options.propertyOrderName)")
        print("jsts: required \(required.passed)/\(required.total) passed, \(required.falsePositives) false positives; optional \(optional.passed)/\(optional.total) passed, \(optional.falsePositives) false positives")
        return required.falsePositives + optional.falsePositives == 0 ? 0 : 1
    }
}
