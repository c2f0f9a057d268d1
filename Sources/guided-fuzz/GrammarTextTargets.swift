import GuidedGrammar
import GuidedMask

extension FuzzTarget {
    /// Lark text → grammar → export round trip → compiled grammar → a short matcher walk.
    static let lark = FuzzTarget(name: "lark", summary: "Lark parser and compiler, export round trip, mask compiler", maxLength: 2048) { bytes in
        guard let text = FuzzInput.text(bytes), let grammar = try? Grammar(lark: text) else { return }
        FuzzExport.roundTrip(grammar)
        guard let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits) else { return }
        FuzzMatcherWalk.walk(compiled, choices: Array(bytes.reversed()))
    }

    /// XGrammar EBNF text → grammar → export round trip → compiled grammar → a short matcher walk.
    static let ebnf = FuzzTarget(name: "ebnf", summary: "XGrammar EBNF parser, export round trip, mask compiler", maxLength: 2048) { bytes in
        guard let text = FuzzInput.text(bytes), let grammar = try? Grammar(ebnf: text) else { return }
        FuzzExport.roundTrip(grammar)
        guard let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits) else { return }
        FuzzMatcherWalk.walk(compiled, choices: Array(bytes.reversed()))
    }

    /// GBNF text → grammar → every export, read back and compared (the exporter over byte grammars the
    /// GBNF reader makes, which is every shape a text grammar can have).
    static let export = FuzzTarget(name: "export", summary: "grammar export (GBNF, EBNF, Lark) read back and compared", maxLength: 1024) { bytes in
        guard let text = FuzzInput.text(bytes), let grammar = try? Grammar(gbnf: text) else { return }
        FuzzExport.roundTrip(grammar)
    }
}

/// The export round trip as a fuzz check: a text that does not read back, or reads back to another
/// language on a few strings, is a finding; a refused export (not text, empty language) is not.
enum FuzzExport {
    static func roundTrip(_ grammar: Grammar) {
        for format in GrammarTextFormat.allCases {
            guard let exported = try? grammar.exported(as: format, options: GrammarExportOptions(maximumRules: 5_000)) else { continue }
            let back: Grammar
            do {
                switch format {
                case .gbnf: back = try Grammar(gbnf: exported.text)
                case .ebnf: back = try Grammar(ebnf: exported.text)
                case .lark: back = try Grammar(lark: exported.text)
                }
            } catch {
                FuzzFinding.report("the exported \(format) does not read back: \(error)\n\(exported.text)")
            }
            // Grammars the reference recognizer refuses (huge repeats) are not compared. Nor are the
            // sentences of a grammar whose shortest one is over 32 bytes (twice the sampling budget), nor a
            // grammar whose recognizer takes over 500,000 Earley items on the 40 strings (0.4 s for the whole
            // two-minute input below, all three formats, with coverage instrumentation):
            // the recognizer is cubic on ambiguous grammars, and `[0-9]+` under nested `{2,}` took 13-15 s
            // per input under ASan, `[?0-9]root{1,}{2,}{1,}{2,}{2,}{,2}{2,}{6,}{26}{2,}` over 2 minutes.
            guard let report = try? GrammarDifferential.compare(grammar, back, strings: 40, seed: 1, budget: 16,
                                                                maximumSentence: 32, maximumItems: 500_000) else { continue }
            if !report.agrees, let e = report.disagreements.first {
                FuzzFinding.report("the exported \(format) reads back to another language: \(e.text) accepted by "
                    + (e.acceptedByFirst ? "the original only" : "the export only") + "\n\(exported.text)")
            }
        }
    }
}

extension FuzzTarget {
    /// Structural-tag JSON (XGrammar's form and ours) → grammar → compiled grammar → a short matcher walk:
    /// what a server takes from a user who ports a tool-call format.
    static let structuralTag = FuzzTarget(name: "structural-tag", summary: "structural tag JSON form, its compiler and the mask compiler",
                                          maxLength: 4096) { bytes in
        guard let text = FuzzInput.text(bytes), let tag = try? StructuralTag(jsonText: text),
              let grammar = try? StructuralTagCompiler.compile(tag) else { return }
        guard let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits) else { return }
        FuzzMatcherWalk.walk(compiled, choices: Array(bytes.reversed()))
    }
}
