import GuidedGrammar
import GuidedMask
import GuidedSchema

extension FuzzTarget {
    /// Compile options small enough that one input takes milliseconds; a limit reached is a typed error.
    static let schemaOptions: JSONSchemaCompileOptions = {
        var o = JSONSchemaCompileOptions()
        o.limits.maxAlternatives = 64
        o.limits.maxRules = 20_000
        o.limits.maxNumberStates = 2_000
        o.limits.maxObjectStates = 5_000
        o.limits.maxDepth = 200
        o.limits.maxAnyOrderUnits = 20_000
        return o
    }()

    /// JSON Schema → grammar → compiled grammar over the fuzz vocabulary → a short matcher walk. The
    /// input's first byte picks the member order; the rest is the schema.
    static let schema = FuzzTarget(name: "schema", summary: "JSON Schema compiler, mask compiler and matcher", maxLength: 2048) { bytes in
        guard let first = bytes.first, let value = try? JSONParser.parse(bytes: Array(bytes.dropFirst())) else { return }
        var options = schemaOptions
        switch first % 3 {
        case 0: options.propertyOrder = .declared
        case 1: options.propertyOrder = .memberSets
        default: options.whitespace = .compact
        }
        // Half the inputs count lengths from 4 on (`CountedLength`) where the product would fit too.
        if first & 0x80 != 0 { options.limits.countedLengthsFrom = 4 }
        guard let grammar = try? JSONSchemaCompiler.compile(value, options: options),
              let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits)
        else { return }
        FuzzMatcherWalk.walk(compiled, choices: Array(bytes.reversed()))
    }

    /// Schema and instance (split at the first NUL byte): the validator never traps, and an instance the
    /// compiled grammar accepts is one the validator finds valid (the grammar is sound). The reference
    /// recognizer answers; for grammars it refuses (arrays of distinct strings: `uniqueItems`), the
    /// matcher over the fuzz vocabulary does.
    static let validator = FuzzTarget(name: "validator", summary: "validator; grammar accepts only what it validates", maxLength: 2048) { bytes in
        let (head, tail) = FuzzInput(bytes: bytes).split()
        guard let schema = try? JSONParser.parse(bytes: head) else { return }
        let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
        guard let instance = try? JSONParser.parse(bytes: tail) else { return }
        let violations = validator.validate(instance)
        // Inputs of odd length count lengths from 4 on (`CountedLength`; the reference recognizer cannot read
        // those grammars, so the matcher answers). Lengths 2 and 3 mod 4 take objects as member sets (the
        // conformance default), whose lowering leaves unreachable rules for the pruning to remove: in
        // declared order alone this target never met F11, a counted length the pruning dropped.
        var options = schemaOptions
        if bytes.count % 2 == 1 { options.limits.countedLengthsFrom = 4 }
        if bytes.count % 4 >= 2 { options.propertyOrder = .memberSets }
        guard tail.count <= 256, let grammar = try? JSONSchemaCompiler.compile(schema, options: options) else { return }
        let accepted: Bool
        if var recognizer = try? ReferenceRecognizer(grammar) {
            accepted = recognizer.feed(tail[...]) && recognizer.canTerminate
        } else if let compiled = try? CompiledGrammar(grammar, vocabulary: FuzzVocabulary.index, limits: FuzzVocabulary.maskLimits) {
            accepted = (try? compiled.accepts(bytes: tail)) ?? false
        } else {
            return
        }
        // An instance of up to 256 bytes nests up to 128 levels, each a few levels of schema evaluation;
        // past its depth limit (200) the validator fails an instance it did not check, a limit of its own
        // that no grammar can know: no verdict to hold the grammar to. (A deeper limit runs a `$ref`
        // cycle out of stack under ASan.)
        if violations.contains(where: { $0.message.hasPrefix("schema evaluation nests deeper than") }) { return }
        if accepted && !violations.isEmpty {
            FuzzFinding.report("grammar accepts an instance the validator refuses: \(violations.first!)")
        }
    }
}
