import GuidedSchema

/// The compiler's working state: the document, the grammar under construction, and memo tables keyed by
/// conjunctions of schema locations (so `$ref` recursion becomes grammar recursion through rules).
///
/// Parts that own their state and build one kind of thing each: `ContentLanguages` (string contents:
/// patterns, formats, lengths and their intersections), `NumberLanguages` (number automata) and
/// `MemberSetRules` (the rules of objects whose members come in any order). What stays here is the walk
/// over the document: analysis of each conjunction (`SchemaLowering+Merge`), objects and arrays
/// (`+Containers`), negation (`+Not`), the checker for listed values (`+Check`) and shared rules.
struct SchemaLowering {
    var document: SchemaDocument
    let options: JSONSchemaCompileOptions
    var grammar = Grammar(startName: "root")
    var ruleMemo: [[Conjunct]: RuleID] = [:]
    /// Indices of the rules `lowerConjunction` makes (one per conjunction of schema locations).
    var locationRules: Set<Int> = []
    /// Analyses by conjunction, as indices into `analyses`: the dictionary then moves small values when it
    /// grows (the facts are large structs).
    var analysisIndex: [[Conjunct]: Int] = [:]
    var analyses: [(Flattened, SchemaFacts)] = []
    /// Conjuncts merged by `analyze` so far, bounded by `Limits.maxAnalyzedConjuncts`.
    var analyzedConjuncts = 0
    var anyValueRule: RuleID? = nil
    /// Per location: the target when it is only a `$ref` (see `resolvingPureReferences`), else -1.
    var pureReferenceTargets: [Int: Int] = [:]
    var sharedRules: [String: RuleID] = [:]
    /// The types each conjunction accepts wholly (`SchemaLowering+WholeTypes`).
    var wholeTypesMemo: [[Conjunct]: InstanceTypes] = [:]
    /// What dropping each conjunct needs to know of it (`conjunctWhole`).
    var conjunctWholes: [Conjunct: ConjunctWhole] = [:]
    /// The overlap of each pair of `oneOf` branches alone (`branchOverlap`).
    var branchOverlaps: [[[Conjunct]]: InstanceTypes] = [:]
    var depth = 0
    /// What the lowering found that compiles but rejects instances a reader would expect to pass
    /// (`JSONSchemaWarning.Kind.minimumByUndeclaredMembers`), one per schema location.
    var warnings: [JSONSchemaWarning] = []
    /// The automata of `pattern`s, formats and lengths, and their intersections, built once each.
    var contents = ContentLanguages()
    /// Expression units the any-order objects built so far copy (see `lowerObjectAnyOrder`).
    var anyOrderSpent = 0
    var anyOrderSizes = ExpandedSize()
    /// The rules of member-set objects, made once each.
    var memberSets: MemberSetRules
    /// The rule made for each undeclared-member expression (see `lowerObject`), and each expression by
    /// what it is made of (`undeclaredMembers`: the branches of nested `dependencies`/`anyOf`/`not` ask
    /// again and again for the same names, patterns and schemas; a fuzzed schema spent 4 s rebuilding
    /// the same name automata).
    var undeclaredRules: [PrefixHashedExpr: GrammarExpr] = [:]
    var undeclaredExprs: [UndeclaredKey: GrammarExpr] = [:]
    /// The number automata of ranges, `multipleOf` and excluded values, built once each.
    var numbers = NumberLanguages()
    /// The name-exclusion trie made for each set of names (see `notIn`).
    var notInRules: [[[UInt32]]: RuleID] = [:]
    /// Whitespace where indented JSON may break a line, and where it never does (see `Whitespace`).
    let ws: GrammarExpr
    let inlineWS: GrammarExpr
    let sep: GrammarExpr
    let colon: GrammarExpr
    /// The compile's budget, checked once per schema location lowered.
    let budget: CompileBudget?

    init(document: SchemaDocument, options: JSONSchemaCompileOptions) {
        self.document = document
        self.options = options
        budget = CompileBudget.current
        ws = JSONText.whitespace(options.whitespace)
        inlineWS = JSONText.whitespace(options.whitespace, inline: true)
        sep = .seq([inlineWS, .literal(","), ws])
        colon = .seq([inlineWS, .literal(":"), inlineWS])
        memberSets = MemberSetRules(ws: ws, sep: sep, colon: colon)
    }

    mutating func lowerRoot() throws(JSONSchemaCompileError) -> Grammar {
        let body = try lowerConjunction([Conjunct(node: 0, full: true)])
        grammar.define(grammar.start, as: body)
        return grammar.prunedToReachable()
    }

    /// A rule for the instances valid against every location in `key`.
    /// Throws once the compile's budget is spent (`pointer`: where the compile was, built only then).
    func checkBudget(pointer: @autoclosure () -> String) throws(JSONSchemaCompileError) {
        if let spent = budget?.exceeded {
            throw JSONSchemaCompileError(.budgetExceeded, keyword: "", pointer: pointer(), detail: spent.description)
        }
    }

    mutating func lowerConjunction(_ rawKey: [Conjunct]) throws(JSONSchemaCompileError) -> GrammarExpr {
        try checkBudget(pointer: document[rawKey.first?.node ?? 0].pointer)
        let key = SchemaLowering.normalize(resolvingPureReferences(rawKey))
        if key.isEmpty { return anyValue() }
        if let r = ruleMemo[key] { return .rule(r) }
        if hasFalseConjunct(key) { return .nothing }
        let reduced = droppingWholeConjuncts(key)
        if reduced != key {
            let e = try lowerConjunction(reduced)
            if case .rule(let r) = e { ruleMemo[key] = r }
            return e
        }
        let firstPointer = document[key[0].node].pointer
        guard grammar.rules.count < options.limits.maxRules else {
            throw JSONSchemaCompileError(.tooComplex, keyword: "", pointer: firstPointer, detail: "more than \(options.limits.maxRules) grammar rules")
        }
        guard depth < options.limits.maxDepth else {
            throw JSONSchemaCompileError(.tooComplex, keyword: "", pointer: firstPointer, detail: "nesting deeper than \(options.limits.maxDepth)")
        }
        depth += 1
        defer { depth -= 1 }
        let rule = grammar.declareRule(name: firstPointer.isEmpty ? "schema" : "schema:" + firstPointer)
        ruleMemo[key] = rule
        locationRules.insert(rule.index)
        let (flat, facts) = try analyze(key)
        var body: GrammarExpr
        if flat.unsatisfiable || facts.unsatisfiable || facts.types.isEmpty {
            body = .nothing
        } else if flat.groups.isEmpty {
            body = try lowerFacts(facts)
        } else if facts.types == .string, facts.enumValues == nil, Self.distributingCostsMore(flat),
                  let one = stringDisjunction(key, flat, pointer: firstPointer) {
            body = one
        } else {
            body = try lowerDisjunctions(flat, types: facts.satisfiableTypes)
        }
        grammar.define(rule, as: body)
        return .rule(rule)
    }

    /// Whether a location of `key` is the schema `false` (in full or by its keywords): no instance
    /// satisfies the conjunction, whatever else it holds.
    func hasFalseConjunct(_ key: [Conjunct]) -> Bool {
        key.contains { c in
            guard c.mode == .full || c.mode == .keywords, case .bool(false) = document[c.node].value else { return false }
            return true
        }
    }

    /// A value that can only be a string, whose `anyOf`/`oneOf` branches constrain strings only (patterns,
    /// formats, lengths, listed strings), as one content automaton (`stringLanguage`: one product of the
    /// branches, accepting where exactly one or at least one accepts) instead of one alternative per
    /// branch, each intersected with the negation of the others. A `oneOf` of seven unanchored patterns (a
    /// status that must name exactly one of seven states) took 35 ms to lower as seven products of seven
    /// automata, 22 ms as one (and half the NFA states). Nil where `stringLanguage` cannot
    /// say the language exactly, or past its limits: the branches are then distributed as before. Only
    /// where distributing costs more (`distributingCostsMore`): a lone `anyOf` needs no negation, so its
    /// alternatives are plain grammar alternatives over shared format and pattern rules (one product of
    /// `hostname`, `ipv4` and `ipv6` cost ten times as much); and not for listed values, which
    /// `lowerEnum` checks one by one.
    mutating func stringDisjunction(_ key: [Conjunct], _ flat: Flattened, pointer: String) -> GrammarExpr? {
        guard flat.groups.reduce(0, { $0 + $1.alternatives.count }) <= Self.maxStringBranches,
              let content = try? stringLanguage(key, pointer: pointer) else { return nil }
        if content.isEmpty { return .nothing }
        // Conjunctions that differ only in schemas with no bearing on strings have one language: one
        // expression (and its rules) serves them all.
        if let known = contents.disjunctionExprs[content] { return known }
        let e = GrammarExpr.seq([.literal("\""), content.grammarExpr(into: &grammar, name: "string", followedBy: .literal("\""))])
        contents.disjunctionExprs[content] = e
        return e
    }

    /// Branches up to which `stringDisjunction` builds one automaton (one product of them all, whose
    /// states can multiply with each branch; past it the branches are distributed).
    static let maxStringBranches = 64

    /// Whether distributing `flat`'s groups would cost more than one automaton: a `oneOf` of three
    /// branches or more (each alternative negates all the others), or groups whose alternatives multiply
    /// to 16 or more (nested `not`/`allOf`/`anyOf` over strings reached 729 alternatives and the rule
    /// limit, where their one automaton is small).
    static func distributingCostsMore(_ flat: Flattened) -> Bool {
        if flat.groups.contains(where: { $0.oneOf && $0.alternatives.count >= 3 }) { return true }
        var combined = 1
        for g in flat.groups {
            combined *= max(1, g.alternatives.count)
            if combined >= 16 { return true }
        }
        return false
    }

    /// Distributes the conjunction over its `anyOf`/`oneOf` groups; `types` bounds the types of the
    /// conjunction's instances (its merged facts' `satisfiableTypes`), and branches and combinations
    /// outside it are dropped first (`SchemaLowering+TypeBounds`).
    mutating func lowerDisjunctions(_ flat: Flattened, types: InstanceTypes) throws(JSONSchemaCompileError) -> GrammarExpr {
        // Everything in the conjunction besides its groups goes with every alternative: the locations'
        // own keywords, and the negations, key presence/absence, member schemas and type restriction the
        // flattening collected (dropping any of them once let invalid instances through, e.g.
        // 'not: {maxLength: 1}' beside an 'anyOf' accepted "", and a nested else-if lost its outer test).
        let base = flat.besideGroups
        guard var groups = droppingAlternatives(of: flat.groups, outside: types) else { return .nothing }
        // The group at which the product of alternatives passes the limit, if it does: then only the
        // combinations that admit instances count against it (`admissibleCombinations`).
        var total = 1
        var pastLimit: DisjunctionGroup? = nil
        for g in groups {
            total *= g.alternatives.count
            if total > options.limits.maxAlternatives { pastLimit = g; break }
        }
        // One group past the limit alone has that many combinations admitting instances (its branches
        // were bounded against the rest above), and `exactlyOne` would compare each pair of them.
        if let g = pastLimit, g.alternatives.count > options.limits.maxAlternatives { throw tooManyAlternatives(g) }
        for gi in groups.indices where groups[gi].oneOf { groups[gi] = try exactlyOne(groups[gi], base: base) }
        // A combination is lowered only where its alternatives' types meet, and where its own facts admit
        // some type (an alternative requiring a member that another, or the base, forbids: a `oneOf`
        // branch beside the negations of the others).
        let bounds = alternativeTypes(of: groups, within: types)
        guard let keys = admissibleCombinations(of: groups, beside: base, bounds: bounds, within: types,
                                                limit: pastLimit == nil ? nil : options.limits.maxAlternatives) else {
            throw tooManyAlternatives(pastLimit!)
        }
        var alternatives: [GrammarExpr] = []
        for key in keys {
            guard analyzedConjuncts <= options.limits.maxAnalyzedConjuncts else { throw tooMuchAnalysis(groups[0]) }
            alternatives.append(try lowerConjunction(key))
        }
        guard analyzedConjuncts <= options.limits.maxAnalyzedConjuncts else { throw tooMuchAnalysis(groups[0]) }
        if options.propertyOrder == .memberSets { alternatives = joiningMemberSets(alternatives) }
        return .alt(alternatives)
    }

    /// The refusal of a conjunction whose groups combine to more alternatives than the limit, naming the
    /// group at which their product passed it.
    func tooManyAlternatives(_ g: DisjunctionGroup) -> JSONSchemaCompileError {
        JSONSchemaCompileError(.tooComplex, keyword: g.keyword.isEmpty ? (g.oneOf ? "oneOf" : "anyOf") : g.keyword, pointer: document[g.holder].pointer,
                               detail: "more than \(options.limits.maxAlternatives) combined alternatives")
    }

    /// The refusal of a compile whose analyses pass `Limits.maxAnalyzedConjuncts`, naming the group
    /// being lowered when they did.
    func tooMuchAnalysis(_ g: DisjunctionGroup) -> JSONSchemaCompileError {
        JSONSchemaCompileError(.tooComplex, keyword: g.keyword.isEmpty ? (g.oneOf ? "oneOf" : "anyOf") : g.keyword, pointer: document[g.holder].pointer,
                               detail: "the schema's combined alternatives take more than \(options.limits.maxAnalyzedConjuncts) analysed conjuncts")
    }

    /// Every conjunction of `base` with one alternative of each group (the first group's choice varies
    /// fastest).
    static func combinations(of groups: [DisjunctionGroup], beside base: [Conjunct]) -> [[Conjunct]] {
        var out: [[Conjunct]] = []
        var choice = [Int](repeating: 0, count: groups.count)
        while true {
            var key = base
            for (gi, g) in groups.enumerated() { key += g.alternatives[choice[gi]] }
            out.append(key)
            var i = 0
            while i < choice.count {
                choice[i] += 1
                if choice[i] < groups[i].alternatives.count { break }
                choice[i] = 0
                i += 1
            }
            if i == choice.count { return out }
        }
    }

    /// Any JSON value (objects limited to `maxUndeclaredProperties` members, so no duplicate keys).
    mutating func anyValue() -> GrammarExpr {
        if let r = anyValueRule { return .rule(r) }
        let r = grammar.declareRule(name: "any")
        anyValueRule = r
        // Unconstrained facts cannot fail to lower.
        let body = (try? lowerFacts(SchemaFacts(), allowShortcut: false)) ?? .nothing
        grammar.define(r, as: body)
        return .rule(r)
    }

    /// Grammar of the instances satisfying merged facts (no disjunctions left).
    mutating func lowerFacts(_ f: SchemaFacts, allowShortcut: Bool = true) throws(JSONSchemaCompileError) -> GrammarExpr {
        if f.unsatisfiable || f.types.isEmpty { return .nothing }
        if let n = f.negated.first, f.enumValues == nil { throw inexactNegation(n) }
        if allowShortcut, f.isUnconstrained, options.additionalProperties == .allow { return anyValue() }
        if let values = f.enumValues { return try lowerEnum(values, f) }
        if !f.someMembers.isEmpty { return try lowerSomeMember(f) }
        var alts: [GrammarExpr] = []
        if f.types.contains(.object) { alts.append(try lowerObject(f)) }
        if f.types.contains(.array) { alts.append(try lowerArray(f)) }
        if f.types.contains(.string) { alts.append(try lowerString(f)) }
        if !f.types.isDisjoint(with: .number) { alts.append(try lowerNumber(f)) }
        if f.types.contains(.boolean) {
            for b in [true, false] where !f.excluded.contains(.bool(b)) { alts.append(.literal(b ? "true" : "false")) }
        }
        if f.types.contains(.null), !f.excluded.contains(.null) { alts.append(.literal("null")) }
        return .alt(alts)
    }

    /// The refusal of negated location `n`, which no rewrite made exact, or, where `n` holds a malformed
    /// keyword value, the error the positive reading gives for it.
    mutating func inexactNegation(_ n: Int) -> JSONSchemaCompileError {
        if let invalid = invalidValue(under: n) { return invalid }
        let site = negationSite(n)
        let detail = site.keyword == "oneOf"
            ? "branch \(document[n].pointer.split(separator: "/").last ?? "") overlaps another and its negation is not exactly expressible"
            : "its negation is exact only for type, enum, const, required, counts, lengths, bounds, pattern, format, multipleOf, properties, items, contains, dependencies and applicators of those, for additionalProperties, patternProperties and propertyNames inside a closed object, or when the values are listed by enum/const"
        return JSONSchemaCompileError(.notExact, keyword: site.keyword, pointer: site.pointer, detail: detail)
    }

    /// The first malformed keyword value at location `n` or below it (not through references), as the
    /// positive reading reports it (`oneOf: 5`, `dependentRequired: {"a": 5}`), or nil. Read only on the
    /// way to a refusal.
    mutating func invalidValue(under n: Int, depth: Int = 0) -> JSONSchemaCompileError? {
        // Locations nest as deep as the JSON text, which the parser bounds; this bounds the stack here too.
        guard depth < 64 else { return nil }
        // Applicator values are read where the location is flattened, the other keywords where merged.
        do { _ = try flatten([Conjunct(node: n, full: true)]) } catch { if error.kind == .invalidSchema { return error } }
        var scratch = SchemaFacts()
        do { try merge(node: n, into: &scratch) } catch { if error.kind == .invalidSchema { return error } }
        guard case .object(let o) = document[n].value else { return nil }
        let pointer = document[n].pointer
        var found: JSONSchemaCompileError? = nil
        SchemaKeywords.forEachSubschema(in: o, draft: document.draft, skipping: { $0 == "definitions" || $0 == "$defs" }) {
            (key: String, member: String?, _: JSONValue) -> Void in
            guard found == nil else { return }
            let path = pointer + "/" + SchemaDocument.escape(key) + (member.map { "/" + $0 } ?? "")
            guard let child = try? document.node(at: path) else { return }
            found = invalidValue(under: child, depth: depth + 1)
        }
        return found
    }

    /// `enum`/`const`: the listed values that certainly satisfy the sibling keywords, as literal text.
    mutating func lowerEnum(_ values: [JSONValue], _ f: SchemaFacts) throws(JSONSchemaCompileError) -> GrammarExpr {
        var rest = f
        rest.enumValues = nil
        var alts: [GrammarExpr] = []
        let integerOnly = !f.types.contains(.fraction)
        for (k, v) in values.enumerated() {
            if k & 63 == 63 { try checkBudget(pointer: "") }
            guard f.types.contains(InstanceTypes(of: v)) else { continue }
            // A value the checker cannot decide is left out: that only loses valid instances.
            guard checkFacts(v, rest, depth: 0) == .valid else { continue }
            alts.append(valueLiteral(v, integerOnly: integerOnly))
        }
        // Listed objects are member sets (`valueLiteral`): joined like a disjunction's objects, so a
        // matcher at their `{` holds one stack for them, not one per value.
        if options.propertyOrder == .memberSets { alts = joiningMemberSets(alts) }
        return .alt(alts)
    }

    /// The texts of one JSON value: whitespace per the options, numbers in every plain (non-exponent)
    /// spelling of the same value, an object's members in any order under member sets (equal objects
    /// are equal whatever their members' order; an object of one member, or past what a member set
    /// tracks, keeps the value's own order), in the value's own order otherwise.
    mutating func valueLiteral(_ v: JSONValue, integerOnly: Bool) -> GrammarExpr {
        switch v {
        case .null: return .literal("null")
        case .bool(let b): return .literal(b ? "true" : "false")
        case .string(let s): return JSONText.quoted(s)
        case .number(let n): return numberValueLiteral(n, integerOnly: integerOnly)
        case .array(let items):
            if items.isEmpty { return .seq([.literal("["), ws, .literal("]")]) }
            var parts: [GrammarExpr] = [.literal("["), ws]
            for (i, x) in items.enumerated() {
                if i > 0 { parts.append(sep) }
                parts.append(valueLiteral(x, integerOnly: false))
            }
            parts += [ws, .literal("]")]
            return .seq(parts)
        case .object(let o):
            if o.isEmpty { return .seq([.literal("{"), ws, .literal("}")]) }
            var values: [GrammarExpr] = []
            for m in o.entries { values.append(valueLiteral(m.value, integerOnly: false)) }
            if options.propertyOrder == .memberSets && o.count > 1 {
                // Every member required, nothing else allowed: the member set writes each once.
                let shape = MemberSetShape(members: zip(o.entries, values).map { .init(name: $0.key, value: $1, required: true) },
                                           undeclared: .nothing)
                if let r = memberSetRule([shape], pointer: "const") { return MemberSetRules.reference(r) }
            }
            var parts: [GrammarExpr] = [.literal("{"), ws]
            for (i, (m, value)) in zip(o.entries, values).enumerated() {
                if i > 0 { parts.append(sep) }
                parts += [JSONText.quoted(m.key), colon, value]
            }
            parts += [ws, .literal("}")]
            return .seq(parts)
        }
    }

    func numberValueLiteral(_ n: JSONNumber, integerOnly: Bool) -> GrammarExpr {
        if n.isZero {
            return .seq([.optional(.literal("-")), .literal("0"), integerOnly ? .empty : .optional(.seq([.literal("."), .plus(.literal("0"))]))])
        }
        guard let plain = n.plainDecimal(maxDigits: options.limits.maxLiteralDigits) else {
            // No plain spelling fits (`1e999999999`): the schema's own literal is one exact spelling of
            // the value, as short as it was written; the other exponent forms are left out, as everywhere.
            if integerOnly && !n.isInteger { return .nothing }
            return .literal(n.text)
        }
        let intPart = plain.integer, fracPart = plain.fraction
        let sign: GrammarExpr = n.isNegative ? .literal("-") : .empty
        if fracPart.isEmpty {
            if integerOnly { return .seq([sign, .literal(intPart)]) }
            return .seq([sign, .literal(intPart), .optional(.seq([.literal("."), .plus(.literal("0"))]))])
        }
        if integerOnly { return .nothing }
        return .seq([sign, .literal(intPart + "." + fracPart), .star(.literal("0"))])
    }

    /// The rest of an object at a point where it may close (`canClose`) or go on with `more` (a member
    /// and what follows it; `.nothing` if none may follow). Once a member is `written`, both choices
    /// begin with whitespace: a line-breaking run before `}`, an inline one before `,`. When the two are
    /// the same (`.compact`, `.unbounded`) it is spelled once before the choice.
    func closeOrMore(written: Bool, canClose: Bool, more: GrammarExpr) -> GrammarExpr {
        let close: GrammarExpr = canClose ? .literal("}") : .nothing
        guard !more.isNothing else { return canClose ? (written ? .seq([ws, close]) : close) : .nothing }
        guard written else { return .alt([close, more]) }
        if inlineWS == ws { return .seq([ws, .alt([close, .seq([.literal(","), ws, more])])]) }
        return .alt([.seq([ws, close]), .seq([sep, more])])
    }

    mutating func shared(_ name: String, _ make: (inout SchemaLowering) -> GrammarExpr) -> GrammarExpr {
        if let r = sharedRules[name] { return .rule(r) }
        let r = grammar.declareRule(name: name)
        sharedRules[name] = r
        let body = make(&self)
        grammar.define(r, as: body)
        return .rule(r)
    }

    // MARK: numbers

    mutating func lowerNumber(_ f: SchemaFacts) throws(JSONSchemaCompileError) -> GrammarExpr {
        let hasInteger = f.types.contains(.integer), hasFraction = f.types.contains(.fraction)
        if hasFraction && !hasInteger {
            // Numbers that are not integers (`not: {type: integer}`, a member failing `type: integer`) are
            // the non-multiples of 1: the remainder automaton of `not: {multipleOf: 1}`, which, as every
            // number under `multipleOf`, is written without an exponent (`2.5`, not `25e-1`: a departure).
            var g = f
            g.types.formUnion(.integer)
            g.notMultipleOf.append((JSONNumber(1), f.numberPointer))
            return try lowerNumber(g)
        }
        let integerOnly = !hasFraction
        // Values excluded by `not: {const/enum}` that the other keywords would admit: their spellings are
        // cut out of the literal automaton (which then rejects exponent forms, a documented departure).
        let excludedNumbers = f.excluded.compactMap { v -> JSONNumber? in
            guard let n = v.numberValue, checkNumber(n, f) != .invalid else { return nil }
            return n
        }
        if excludedNumbers.isEmpty && f.lower == nil && f.upper == nil && f.multipleOf.isEmpty && f.notMultipleOf.isEmpty
            && options.maxNumberDigits == nil {
            return integerOnly ? shared("integer") { _ in JSONNumberSyntax.integer } : shared("number") { _ in JSONNumberSyntax.number }
        }
        return try numbers.lower(f, integerOnly: integerOnly, excluded: excludedNumbers, options: options, grammar: &grammar)
    }
}
