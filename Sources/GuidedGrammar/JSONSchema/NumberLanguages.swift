import GuidedSchema

/// JSON numbers that meet bounds, `multipleOf` (and its negation) and excluded values, as byte automata
/// over their spellings (`NumberScanners`), intersected and lowered to rules once per distinct automaton.
///
/// The same range in many places (each tool's `limit`) is one set of rules: objects whose members have
/// the same values then share their member-set rule.
struct NumberLanguages {
    private var rules: [NumberDFA: GrammarExpr] = [:]

    /// The numbers of `f` (integers only when `integerOnly`) other than `excluded`. Refused, naming the
    /// keyword and pointer, when an automaton passes `options.limits.maxNumberStates`.
    mutating func lower(_ f: SchemaFacts, integerOnly: Bool, excluded excludedNumbers: [JSONNumber],
                        options: JSONSchemaCompileOptions, grammar: inout Grammar) throws(JSONSchemaCompileError) -> GrammarExpr {
        if let l = f.lower, let u = f.upper, l.value > u.value || (l.value == u.value && (l.exclusive || u.exclusive)) {
            return .nothing
        }
        let zeroBounds = [f.lower, f.upper].allSatisfy { $0 == nil || $0!.value.isZero }
        let exponent = !integerOnly && f.multipleOf.isEmpty && f.notMultipleOf.isEmpty && zeroBounds && excludedNumbers.isEmpty
        var dfa = NumberScanners.syntax(fraction: !integerOnly, exponent: exponent)
        let limit = options.limits.maxNumberStates
        if !excludedNumbers.isEmpty {
            guard let scanner = NumberScanners.excluding(excludedNumbers, fraction: !integerOnly, maxDigits: options.limits.maxLiteralDigits, limit: limit),
                  let d = dfa.intersect(scanner, limit: limit) else {
                throw JSONSchemaCompileError(.tooComplex, keyword: "not", pointer: f.excludedPointer, detail: "number automaton over \(limit) states")
            }
            dfa = d
        }
        func tooBig(_ kw: String) -> JSONSchemaCompileError {
            JSONSchemaCompileError(.tooComplex, keyword: kw, pointer: f.numberPointer, detail: "number automaton over \(limit) states")
        }
        if let l = f.lower {
            guard let scanner = NumberScanners.compare(l.exclusive ? .greater : .greaterOrEqual, l.value, limit: limit),
                  let d = dfa.intersect(scanner, limit: limit) else { throw tooBig(l.exclusive ? "exclusiveMinimum" : "minimum") }
            dfa = d
        }
        if let u = f.upper {
            guard let scanner = NumberScanners.compare(u.exclusive ? .less : .lessOrEqual, u.value, limit: limit),
                  let d = dfa.intersect(scanner, limit: limit) else { throw tooBig(u.exclusive ? "exclusiveMaximum" : "maximum") }
            dfa = d
        }
        for m in f.multipleOf {
            guard let scanner = NumberScanners.multiple(of: m.value, maxModulus: 20_000, limit: limit),
                  let d = dfa.intersect(scanner, limit: limit) else {
                throw JSONSchemaCompileError(.tooComplex, keyword: "multipleOf", pointer: m.pointer, detail: "multipleOf \(m.value) needs too many remainder states")
            }
            dfa = d
        }
        for m in f.notMultipleOf {
            guard let scanner = NumberScanners.multiple(of: m.value, maxModulus: 20_000, limit: limit, negated: true),
                  let d = dfa.intersect(scanner, limit: limit) else {
                throw JSONSchemaCompileError(.tooComplex, keyword: "not", pointer: m.pointer, detail: "not multipleOf \(m.value) needs too many remainder states")
            }
            dfa = d
        }
        if let n = options.maxNumberDigits {
            guard let d = dfa.intersect(NumberScanners.digitRuns(atMost: max(1, n)), limit: limit) else { throw tooBig("type") }
            dfa = d
        }
        if let known = rules[dfa] { return known }
        let lowered = dfa.lower(into: &grammar, name: "number")
        rules[dfa] = lowered
        return lowered
    }
}

/// The plain JSON number syntaxes (RFC 8259).
enum JSONNumberSyntax {
    static let digit = GrammarExpr.byteRange(0x30...0x39)
    static let intPart = GrammarExpr.seq([.optional(.literal("-")),
                                         .alt([.literal("0"), .seq([.byteRange(0x31...0x39), .star(digit)])])])
    static let integer = intPart
    static let number = GrammarExpr.seq([
        intPart,
        .optional(.seq([.literal("."), .plus(digit)])),
        .optional(.seq([.byteSet(ByteSet([0x65, 0x45])), .optional(.byteSet(ByteSet([0x2B, 0x2D]))), .plus(digit)])),
    ])
}
