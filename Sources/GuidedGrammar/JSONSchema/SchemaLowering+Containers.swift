import GuidedSchema

extension SchemaLowering {
    // MARK: arrays

    mutating func elementExpr(_ nodes: [Int]) throws(JSONSchemaCompileError) -> GrammarExpr {
        nodes.isEmpty ? anyValue() : try lowerConjunction(nodes.map { Conjunct(node: $0, full: true) })
    }

    mutating func lowerArray(_ f: SchemaFacts) throws(JSONSchemaCompileError) -> GrammarExpr {
        let excludedArrays = f.excluded.filter { if case .array = $0 { return true } else { return false } }
        for x in excludedArrays where checkFacts(x, f, depth: 0) != .invalid {
            throw JSONSchemaCompileError(.notExact, keyword: "not", pointer: f.excludedPointer, detail: "excluding an array value is not supported")
        }
        let lo = f.minItems, hi = f.maxItems
        if let h = hi, h < lo { return .nothing }
        if let pointer = f.uniqueItems {
            if let unique = try uniqueListedItems(f) { return unique }
            return try distinctStringArray(f, pointer: pointer)
        }
        let k = f.arrayParts.map(\.prefix.count).max() ?? 0
        var prefix: [GrammarExpr] = []
        for j in 0..<k {
            var nodes: [Int] = []
            for part in f.arrayParts {
                if j < part.prefix.count { nodes.append(part.prefix[j]) } else if let r = part.rest { nodes.append(r) }
            }
            prefix.append(try elementExpr(nodes))
        }
        let rest = try elementExpr(f.arrayParts.compactMap(\.rest))
        let open = GrammarExpr.seq([.literal("["), ws])
        let close = GrammarExpr.seq([ws, .literal("]")])
        let empty: GrammarExpr = lo == 0 ? .seq([.literal("["), ws, .literal("]")]) : .nothing

        let active = f.contains.filter { !($0.min == 0 && $0.max == nil) }
        if !active.isEmpty {
            let c = active[0]
            if active.count > 1 || k > 0 || hi != nil || c.max != nil || lo > c.min { return try lowerCountedContains(active, f, k: k) }
            // The common "at least n" alone: `lowerCountedContains` would say the same with a rule per
            // (position, count) state; starred loops here keep it to n copies of the match.
            var nodes = f.arrayParts.compactMap(\.rest)
            nodes.append(c.node)
            let match = try lowerConjunction(nodes.map { Conjunct(node: $0, full: true) })
            let others = GrammarExpr.star(.seq([sep, rest]))
            var parts: [GrammarExpr] = [.star(.seq([rest, sep])), match]
            if c.min > 1 { parts.append(.repeat(.seq([others, sep, match]), min: c.min - 1, max: c.min - 1)) }
            parts.append(others)
            return .seq([open, .seq(parts), close])
        }
        if hi == 0 { return empty }
        func restFrom(_ j: Int) -> GrammarExpr {
            if let h = hi, h < j { return .nothing }
            if rest.isNothing { return j >= lo ? .empty : .nothing }
            return .repeat(.seq([sep, rest]), min: max(0, lo - j), max: hi.map { $0 - j })
        }
        // tail(j): j elements written, the next one (if any) is position j.
        var tail = restFrom(max(k, 1))
        if k > 0 {
            for j in stride(from: k - 1, through: 1, by: -1) {
                let next: GrammarExpr = (hi == nil || j + 1 <= hi!) ? .seq([sep, prefix[j], tail]) : .nothing
                tail = j >= lo ? .alt([.empty, next]) : next
            }
        }
        let first = k > 0 ? prefix[0] : rest
        // The empty array shares the opening bracket and its whitespace with the others: one whitespace
        // run in the automaton instead of two.
        let elements = GrammarExpr.seq([first, tail, close])
        return lo == 0 ? .seq([open, .alt([.literal("]"), elements])]) : .seq([open, elements])
    }

    /// `contains` with `minContains`/`maxContains` beside prefix items and item counts, exactly: the array
    /// is a chain over (items written j, matching items counted per clause), each item either matching
    /// some of the clauses (its position's schema and theirs) or none. With a `maxContains` a
    /// non-matching item must fail the `contains` schema (its negation, refused where not exact); without
    /// one it is just its position's schema (some m items match, whatever the others do), so several
    /// "at least" clauses (`allOf` of `contains`) count side by side, an item counting for any of them.
    /// Positions past the prefix and past the counts that matter are one state; counts past the bound
    /// that matters are one too.
    mutating func lowerCountedContains(_ clauses: [ContainsClause], _ f: SchemaFacts, k: Int) throws(JSONSchemaCompileError) -> GrammarExpr {
        let lo = f.minItems, hi = f.maxItems
        if clauses.count > 1, let bounded = clauses.first(where: { $0.max != nil }) {
            throw JSONSchemaCompileError(.notExact, keyword: "maxContains", pointer: bounded.pointer,
                                         detail: "a maxContains beside another contains on the same array is not counted")
        }
        guard clauses.count <= 3 else {
            throw JSONSchemaCompileError(.tooComplex, keyword: "contains", pointer: clauses[3].pointer, detail: "more than 3 contains on one array")
        }
        let bound = clauses[0].max   // only with a single clause
        if let mx = bound, mx < clauses[0].min { return .nothing }
        if let h = hi, clauses.contains(where: { $0.min > h }) { return .nothing }
        // Positions that differ: the prefix, and the lengths up to maxItems (or minItems without one); at
        // least the first and the others (the first item has no separator before it).
        let last = hi ?? max(k, lo, 1)
        let caps = clauses.map { $0.max.map { $0 + 1 } ?? $0.min }
        let countStates = caps.reduce(1) { $0 * ($1 + 1) }
        guard (last + 1) * countStates <= 4_096 else {
            throw JSONSchemaCompileError(.tooComplex, keyword: bound != nil ? "maxContains" : "contains", pointer: clauses[0].pointer,
                                         detail: "counting contains matches over \(last) positions needs more than 4096 states")
        }
        func nodes(_ j: Int) -> [Conjunct] {
            var out: [Conjunct] = []
            for part in f.arrayParts {
                if j < part.prefix.count { out.append(Conjunct(node: part.prefix[j], full: true)) }
                else if let r = part.rest { out.append(Conjunct(node: r, full: true)) }
            }
            return out
        }
        // The item at position j matching the clauses of `subset` (a bit mask; 0: matching none).
        var items: [Int: GrammarExpr] = [:]
        func item(_ j: Int, _ subset: Int) throws(JSONSchemaCompileError) -> GrammarExpr {
            let position = min(j, k)   // every position past the prefix has the same schemas
            let key = position << 3 | subset
            if let known = items[key] { return known }
            let own = nodes(position)
            let e: GrammarExpr
            if subset != 0 {
                e = try lowerConjunction(own + clauses.indices.filter { subset >> $0 & 1 == 1 }.map { Conjunct(node: clauses[$0].node, full: true) })
            } else if bound != nil {
                e = try lowerConjunction(own + [Conjunct(node: clauses[0].node, mode: .negated)])
            } else {
                e = own.isEmpty ? anyValue() : try lowerConjunction(own)
            }
            items[key] = e
            return e
        }
        // A state's counts in mixed radix (clause i's digit runs 0...caps[i]).
        func digits(_ counts: Int) -> [Int] {
            var rest = counts
            return caps.map { cap in defer { rest /= cap + 1 }; return rest % (cap + 1) }
        }
        func encode(_ d: [Int]) -> Int { zip(d, caps).reversed().reduce(0) { $0 * ($1.1 + 1) + $1.0 } }
        var rules: [Int: RuleID] = [:]
        func state(_ j: Int, _ counts: Int) -> RuleID {
            let key = j * countStates + counts
            if let r = rules[key] { return r }
            let r = grammar.declareRule(name: "contains:\(clauses[0].pointer):\(j):\(counts)")
            rules[key] = r
            return r
        }
        // Built from the start state outward: only the states an array can reach.
        var pending = [(0, 0)]
        _ = state(0, 0)
        var done: Set<Int> = []
        while let (j, counts) = pending.popLast() {
            guard done.insert(j * countStates + counts).inserted else { continue }
            let d = digits(counts)
            var choices: [GrammarExpr] = []
            // (No state counts past maxContains: a match that would is never offered.)
            if j >= lo, zip(d, clauses).allSatisfy({ $0.0 >= $0.1.min }) {
                choices.append(j == 0 ? .literal("]") : .seq([ws, .literal("]")]))
            }
            if hi.map({ j < $0 }) ?? true {
                let next = min(j + 1, last)
                let lead: GrammarExpr = j == 0 ? .empty : sep
                for subset in 0..<(1 << clauses.count) {
                    if let mx = bound, subset != 0, d[0] + 1 > mx { continue }
                    let after = encode(d.indices.map { subset >> $0 & 1 == 1 ? min(d[$0] + 1, caps[$0]) : d[$0] })
                    choices.append(.seq([lead, try item(j, subset), .rule(state(next, after))]))
                    pending.append((next, after))
                }
            }
            grammar.define(state(j, counts), as: .alt(choices))
        }
        return .seq([.literal("["), ws, .rule(state(0, 0))])
    }

    /// Listed values `uniqueItems` may choose among: the arrays are the orderings of subsets, one rule
    /// per subset.
    static let maxUniqueListed = 6

    /// `uniqueItems: true` over items that are a few listed strings, booleans or null (`enum`/`const`,
    /// each spelled one way, so equal values are equal text): one rule per set of values written, each
    /// taking a value not yet in it or closing once `minItems` is met. Nil for any other array.
    mutating func uniqueListedItems(_ f: SchemaFacts) throws(JSONSchemaCompileError) -> GrammarExpr? {
        let lo = f.minItems, hi = f.maxItems
        let active = f.contains.filter { !($0.min == 0 && $0.max == nil) }
        guard active.isEmpty, f.arrayParts.allSatisfy({ $0.prefix.isEmpty }) else { return nil }
        let nodes = f.arrayParts.compactMap(\.rest)
        guard !nodes.isEmpty,
              let (flat, item) = try? analyze(SchemaLowering.normalize(nodes.map { Conjunct(node: $0, full: true) })),
              flat.groups.isEmpty, !flat.unsatisfiable, item.negated.isEmpty, let listed = item.enumValues else { return nil }
        var rest = item
        rest.enumValues = nil
        var values: [JSONValue] = []
        for v in listed where item.types.contains(InstanceTypes(of: v)) && !values.contains(v) {
            switch v {
            case .string, .bool, .null: break
            default: return nil
            }
            // As `lowerEnum`: a value the checker cannot decide is left out (only valid arrays are lost).
            if checkFacts(v, rest, depth: 0) == .valid { values.append(v) }
        }
        guard values.count <= Self.maxUniqueListed else { return nil }
        var literals: [GrammarExpr] = []
        for v in values { literals.append(valueLiteral(v, integerOnly: false)) }
        let close = GrammarExpr.seq([ws, .literal("]")])
        var rules: [Int: RuleID] = [:]
        func rule(_ used: Int, _ me: inout SchemaLowering) -> GrammarExpr {
            if let r = rules[used] { return .rule(r) }
            let r = me.grammar.declareRule(name: "unique:\(f.arrayPointer)#\(used)")
            rules[used] = r
            let count = used.nonzeroBitCount
            var alts: [GrammarExpr] = []
            if count >= lo { alts.append(used == 0 ? .literal("]") : close) }
            if hi.map({ count + 1 <= $0 }) ?? true {
                for (i, literal) in literals.enumerated() where used & (1 << i) == 0 {
                    alts.append(.seq([used == 0 ? .empty : me.sep, literal, rule(used | 1 << i, &me)]))
                }
            }
            me.grammar.define(r, as: .alt(alts))
            return .rule(r)
        }
        return .seq([.literal("["), ws, rule(0, &self)])
    }

    /// Listed values an array of distinct strings from a finite language may hold: the matcher checks
    /// them against the items written at every byte (`DistinctItems`). Larger finite languages keep their
    /// automaton instead, and the matcher counts completions on it.
    static let maxDistinctValues = 4_096

    /// `uniqueItems: true` over items that are strings only: the array as without `uniqueItems`, as a rule
    /// marked `distinctStringItems`, whose repeated items the token matcher refuses (strings are spelled
    /// one way, so equal text is equal value). Where every prefix of an item has infinitely many
    /// completions (`{"type": "string"}`, `minLength`, most patterns), a refusal never leaves a parse with
    /// nothing to write. Otherwise the rule also carries the language, as a list of at most
    /// `maxDistinctValues` strings (an `enum`) or as its automaton (`maxLength`, formats, bounded
    /// patterns), and the matcher refuses what would leave no unwritten value to finish an item or reach
    /// `minItems`. Refused for other items (numbers compare by value, objects regardless of member
    /// order), naming `uniqueItems`.
    mutating func distinctStringArray(_ f: SchemaFacts, pointer: String) throws(JSONSchemaCompileError) -> GrammarExpr {
        func refuse(_ why: String) -> JSONSchemaCompileError {
            JSONSchemaCompileError(.unsupported, keyword: "uniqueItems", pointer: pointer, detail: "uniqueItems: true is enforced over "
                                   + "string items, or over up to \(Self.maxUniqueListed) listed strings, booleans or null; \(why)")
        }
        let active = f.contains.filter { !($0.min == 0 && $0.max == nil) }
        guard active.isEmpty else { throw refuse("not beside contains") }
        // Items by position (`prefixItems`, array-form `items`) are compared as values too.
        if f.arrayParts.contains(where: { !$0.prefix.isEmpty }) { return try distinctValueArray(f, pointer: pointer) }
        let nodes = f.arrayParts.compactMap(\.rest)
        let conjuncts = nodes.map { Conjunct(node: $0, full: true) }
        // Items that may be other values than strings are compared as values.
        guard !nodes.isEmpty, let (_, item) = try? analyze(SchemaLowering.normalize(conjuncts)), Self.stringsOnly(item) else {
            return try distinctValueArray(f, pointer: pointer)
        }
        guard let language = try stringLanguage(conjuncts, pointer: pointer) else {
            throw refuse("the strings these items may be are not known exactly")
        }
        var values: [[UInt8]]? = nil
        var counted: ByteDFA? = nil
        if !language.isEmpty && !language.continuesInfinitelyFromEveryPrefix {
            if let words = language.words(limit: Self.maxDistinctValues) {
                // No array of that many distinct items.
                if words.count < f.minItems { return .nothing }
                values = words
            } else {
                // Too many to list: the matcher counts completions on the automaton instead.
                let total = language.completionCounts(cap: UInt64(Int32.max))[0]
                if total < UInt64(f.minItems) { return .nothing }
                counted = language
            }
        }
        var plain = f
        plain.uniqueItems = nil
        let body = try lowerArray(plain)
        if language.isEmpty { return body }   // no item at all: `[]` is the only array, and it is distinct
        let r = grammar.declareRule(name: "distinct:\(f.arrayPointer)")
        grammar.define(r, as: body)
        grammar.markDistinctStringItems(r, values: values, language: counted, minimum: f.minItems)
        return .rule(r)
    }

    /// Whether `item` admits strings only: its types, or its listed values of the types it has.
    static func stringsOnly(_ item: SchemaFacts) -> Bool {
        if item.types == .string { return true }
        guard let listed = item.enumValues else { return false }
        return listed.allSatisfy { v in
            if case .string = v { return true }
            return !item.types.contains(InstanceTypes(of: v))
        }
    }

    // MARK: objects

    struct Member {
        var name: String
        var value: GrammarExpr
        var required: Bool
        var forbidden: Bool
    }

    /// Objects: declared members in order, each present or absent, then undeclared members; a small
    /// automaton over (member index, members written so far, presence of dependency-linked members)
    /// enforces `required`, `min/maxProperties` and `dependentRequired` exactly.
    mutating func lowerObject(_ f: SchemaFacts) throws(JSONSchemaCompileError) -> GrammarExpr {
        let excludedObjects = f.excluded.filter { if case .object = $0 { return true } else { return false } }
        for x in excludedObjects where checkFacts(x, f, depth: 0) != .invalid {
            throw JSONSchemaCompileError(.notExact, keyword: "not", pointer: f.excludedPointer, detail: "excluding an object value is not supported")
        }
        if let mx = f.maxProperties, mx < f.minProperties { return .nothing }
        let parts = f.objectParts
        let explicitAdditional = parts.contains { $0.additional != nil }
        let undeclaredDefaultAllowed = options.additionalProperties == .allow || explicitAdditional

        var names: [String] = []
        for p in parts { for prop in p.properties where !names.contains(prop.name) { names.append(prop.name) } }
        let declaredAnywhere = Set(names)
        for r in f.required where !names.contains(r) { names.append(r) }
        for d in f.dependentRequired {
            for n in [d.key] + d.required where !names.contains(n) { names.append(n) }
        }
        for k in f.forbiddenKeys where !names.contains(k) { names.append(k) }

        var members: [Member] = []
        for name in names {
            var forbidden = f.forbiddenKeys.contains(name)
            if !declaredAnywhere.contains(name) && !undeclaredDefaultAllowed { forbidden = true }
            if !forbidden {
                for pn in f.propertyNames {
                    switch check(.string(name), [Conjunct(node: pn, full: true)], depth: 0) {
                    case .valid: continue
                    case .invalid: forbidden = true
                    case .unknown:
                        throw JSONSchemaCompileError(.notExact, keyword: "propertyNames", pointer: f.objectPointer,
                                                     detail: "cannot decide whether '\(name)' is an allowed name")
                    }
                }
            }
            var value: GrammarExpr = .nothing
            if !forbidden {
                let nodes = try memberNodes(f, name)
                value = try elementExpr(nodes)
                if value.isNothing { forbidden = true }
                else if !nodes.isEmpty {
                    let key = SchemaLowering.normalize(nodes.map { Conjunct(node: $0, full: true) })
                    let (flat, facts) = try analyze(key)
                    if flat.unsatisfiable || facts.unsatisfiable { forbidden = true }
                }
            }
            members.append(Member(name: name, value: value, required: f.required.contains(name), forbidden: forbidden))
        }

        return try objectAfterMembers(f, names: names, members: members, undeclaredDefaultAllowed: undeclaredDefaultAllowed)
    }

    /// `lowerObject` past its declared members: the undeclared ones, names restricted by `propertyNames`,
    /// witnesses, and the object in the order asked. Apart from `lowerObject`, whose frame nested objects
    /// recurse through (member values are lowered there), so that these locals are not in it: with them
    /// a debug build's frame was 31 KB per level and 200 nested objects overflowed an 8 MB stack.
    @inline(never)
    mutating func objectAfterMembers(_ f: SchemaFacts, names: [String], members declaredMembers: [Member],
                                     undeclaredDefaultAllowed: Bool) throws(JSONSchemaCompileError) -> GrammarExpr {
        let parts = f.objectParts
        var members = declaredMembers
        // Undeclared members.
        var undeclaredLimit = 0
        var extraKeys: [String] = []
        if undeclaredDefaultAllowed {
            let additionalNodes = parts.compactMap(\.additional)
            let key = SchemaLowering.normalize(additionalNodes.map { Conjunct(node: $0, full: true) })
            var satisfiable = true
            if !key.isEmpty {
                let (flat, facts) = try analyze(key)
                satisfiable = !(flat.unsatisfiable || facts.unsatisfiable)
            }
            if satisfiable || !parts.allSatisfy({ $0.patterns.isEmpty }) {
                undeclaredLimit = options.maxUndeclaredProperties
            }
        }
        // Undeclared names that `propertyNames` restricts by string keywords: their automaton, met with the
        // name automaton of the undeclared members (nil: names not restricted that way).
        var nameLanguage: ByteDFA? = nil
        if undeclaredLimit > 0, !f.propertyNames.isEmpty {
            // Names must satisfy propertyNames: listed by enum/const, or a string language (pattern,
            // length, format and their negations) intersected into the names' automaton.
            var listed: [String]? = nil
            for pn in f.propertyNames {
                let (flat, facts) = try analyze([Conjunct(node: pn, full: true)])
                if flat.unsatisfiable || facts.unsatisfiable || !facts.types.contains(.string) { listed = []; break }
                if let e = facts.enumValues {
                    let strings = e.compactMap(\.stringValue)
                    listed = listed.map { l in l.filter { strings.contains($0) } } ?? strings
                    continue
                }
                let unrestricted = flat.groups.isEmpty && facts.minLength == 0 && facts.maxLength == nil && facts.patterns.isEmpty
                    && facts.formats.isEmpty && !facts.excluded.contains(where: { $0.stringValue != nil })
                    && facts.negated.isEmpty && facts.negatedPatterns.isEmpty && facts.negatedFormats.isEmpty
                if unrestricted { continue }
                guard let d = try stringLanguage([Conjunct(node: pn, full: true)], pointer: f.objectPointer + "/propertyNames") else {
                    throw JSONSchemaCompileError(.notExact, keyword: "propertyNames", pointer: f.objectPointer,
                                                 detail: "undeclared names can be restricted only by enum/const, string keywords (pattern, length, format) and anyOf/oneOf of those")
                }
                if let known = nameLanguage {
                    do { nameLanguage = try known.intersection(d, limits: automatonLimits) } catch {
                        throw JSONSchemaCompileError(.tooComplex, keyword: "propertyNames", pointer: f.objectPointer, detail: error.description)
                    }
                } else {
                    nameLanguage = d
                }
            }
            if let l = listed {
                for name in l where !names.contains(name) {
                    var ok = true
                    for pn in f.propertyNames where check(.string(name), [Conjunct(node: pn, full: true)], depth: 0) != .valid { ok = false }
                    if ok { extraKeys.append(name) }
                }
                undeclaredLimit = 0
            }
        }
        for name in extraKeys {
            members.append(Member(name: name, value: try elementExpr(try memberNodes(f, name)), required: false, forbidden: false))
        }
        var undeclaredMember: GrammarExpr = .nothing
        let patternsOnly = undeclaredLimit == 0
        if undeclaredLimit > 0 {
            undeclaredMember = try undeclaredMembers(f, excluding: names + extraKeys, defaultAllowed: undeclaredDefaultAllowed,
                                                     nameLanguage: nameLanguage)
        } else if !parts.allSatisfy({ $0.patterns.isEmpty }), f.propertyNames.isEmpty {
            // additionalProperties: false (or the forbid option) still admits names matching patterns.
            undeclaredMember = try undeclaredMembers(f, excluding: names, defaultAllowed: false)
            if !undeclaredMember.isNothing { undeclaredLimit = options.maxUndeclaredProperties }
        }
        // Undeclared members the object must have, one of each region (`SchemaLowering+SomeMember`).
        var witnesses: [GrammarExpr] = []
        if !f.witnesses.isEmpty {
            // Names listed by `propertyNames` are written as declared members, which a witness is not.
            guard extraKeys.isEmpty else { throw inexactNegation(f.witnesses[0].node) }
            if undeclaredMember.isNothing { return .nothing }
            guard let w = try witnessMembers(f, names: names, patternsOnly: patternsOnly, defaultAllowed: undeclaredDefaultAllowed,
                                             nameLanguage: nameLanguage) else { return .nothing }
            witnesses = w
        }
        if !undeclaredMember.isNothing {
            // Every position of the object whose later members may be absent reaches it: as one called
            // rule, its name-exclusion trie is one set of automaton states for all of them, so their token
            // masks are computed once, not on the first visit of every key position (milliseconds each in
            // an object with dozens of declared names).
            // Objects that admit the same undeclared members (alternatives of one object) share the rule.
            // The name's opening quote stays with the object: called before it, the rule's call edge sat in
            // every state of the whitespace run before a key, and a first visit of such a position (a
            // new set of members written) walked each of its states as a configuration of two stacks.
            let key = PrefixHashedExpr(undeclaredMember)
            if let known = undeclaredRules[key] {
                undeclaredMember = known
            } else {
                let rest = undeclaredMember.afterOpeningQuote
                let r = grammar.addRule(name: "undeclared:\(f.objectPointer)", body: rest ?? undeclaredMember, shared: true)
                undeclaredMember = rest == nil ? .rule(r) : .seq([.literal("\""), .rule(r)])
                undeclaredRules[key] = undeclaredMember
            }
        }

        // Undeclared members are counted apart from declared ones (k = how many so far). The grammar does not
        // keep their names distinct, so k members may carry fewer distinct keys: toward `maxProperties` all
        // k count (stricter, so sound); toward `minProperties` they count as one at most (the only number of
        // distinct keys k ≥ 1 members surely have). An object needing two or more undeclared members to
        // reach `minProperties` is therefore rejected (a departure), never accepted with a repeated key.
        let undeclaredCap: Int
        if undeclaredLimit == Int.max {
            undeclaredCap = f.maxProperties.map { $0 + 1 } ?? 1
        } else {
            undeclaredCap = undeclaredLimit
        }
        // Where `minProperties` can be reached only with two or more undeclared members (a map of at least
        // two entries), no instance is accepted: say so, since the grammar alone reads as empty there.
        let writable = members.filter { !$0.forbidden }.count
        if !undeclaredMember.isNothing, undeclaredLimit > 1, f.minProperties > writable + 1,
           f.maxProperties.map({ $0 >= f.minProperties }) ?? true,
           !warnings.contains(where: { $0.kind == .minimumByUndeclaredMembers && $0.pointer == f.objectPointer }) {
            warnings.append(JSONSchemaWarning(
                .minimumByUndeclaredMembers, keyword: "minProperties", pointer: f.objectPointer,
                detail: "\(f.minProperties) members are needed and \(writable == 0 ? "no" : "only \(writable)") declared member\(writable == 1 ? "" : "s") can be written; undeclared members count as one at most, because the grammar cannot keep their keys distinct"))
        }
        // Dependencies between members, by index.
        var index: [String: Int] = [:]
        for (i, m) in members.enumerated() { index[m.name] = i }
        var deps: [(a: Int, b: Int)] = []
        for d in f.dependentRequired {
            for r in d.required where r != d.key { deps.append((index[d.key]!, index[r]!)) }
        }
        // One description of the object for the member-set and any-order builders (built once: each
        // literal of it is a large temporary in the frame that nested objects recurse through).
        let object = AnyOrderObject(
            members: members, dependencies: deps, minProperties: f.minProperties, maxProperties: f.maxProperties,
            undeclaredMember: undeclaredMember, undeclaredLimit: undeclaredLimit, undeclaredCap: undeclaredCap,
            pointer: f.objectPointer, witnesses: witnesses)
        if !witnesses.isEmpty {
            // Only member sets keep a required undeclared member (a bit of its own); other orders refuse.
            guard options.propertyOrder == .memberSets, let tracked = lowerObjectMemberSet(object) else {
                throw inexactNegation(f.witnesses[0].node)
            }
            return tracked
        }
        if options.propertyOrder == .memberSets, let tracked = lowerObjectMemberSet(object) {
            return tracked
        }
        if wantsAnyOrder(members), let anyOrder = try lowerObjectAnyOrder(object) {
            return anyOrder
        }
        return try lowerObjectDeclared(object)
    }

    /// An object in declared order: a chain of rules over (member index, members written, dependency
    /// presence), each declared member present or absent in turn, then the undeclared ones. Apart from
    /// `lowerObject` so that its many locals stay out of the frame nested objects recurse through (a
    /// debug build's frame of 33 KB per level overflowed the stack at 200 levels).
    @inline(never)
    mutating func lowerObjectDeclared(_ o: AnyOrderObject) throws(JSONSchemaCompileError) -> GrammarExpr {
        let members = o.members, deps = o.dependencies
        let undeclaredMember = o.undeclaredMember, undeclaredLimit = o.undeclaredLimit, undeclaredCap = o.undeclaredCap
        var tracked: [Int: Int] = [:]
        for d in deps { for x in [d.a, d.b] where tracked[x] == nil { tracked[x] = tracked.count } }
        guard tracked.count <= 60 else {
            throw JSONSchemaCompileError(.tooComplex, keyword: "dependentRequired", pointer: o.pointer, detail: "too many dependent names")
        }
        let cap = max(o.minProperties, (o.maxProperties ?? 0) + 1, 1)
        let n = members.count
        struct State: Hashable { var i: Int; var c: Int; var mask: UInt64 }
        var stateRules: [State: RuleID] = [:]
        var pending: [(State, RuleID)] = []
        let limit = options.limits.maxObjectStates
        let memberExprs = members.map { GrammarExpr.seq([JSONText.quoted($0.name), colon, $0.value]) }
        let pointer = o.pointer
        var overflow = false

        // Past the declared members, the count k of undeclared ones (s.i = n + k) matters toward
        // `minProperties`, `maxProperties` and a finite undeclared limit, and for whether a separator is
        // due. Once a declared member is written and `minProperties` is met without undeclared ones, with
        // no maximum and no limit, k = 1 is the same state as k = 0: it is folded into it, so the object's
        // tail (and the undeclared member's name trie inlined in it) is spelled once, not twice.
        let foldUndeclared = o.maxProperties == nil && undeclaredLimit == Int.max
        func ruleFor(_ state: State, _ me: inout SchemaLowering) -> GrammarExpr {
            var s = state
            if foldUndeclared, s.i > n, s.c > 0, s.c >= o.minProperties { s.i = n }
            if let r = stateRules[s] { return .rule(r) }
            if stateRules.count >= limit { overflow = true; return .nothing }
            let r = me.grammar.declareRule(name: "object:\(pointer)#\(s.i).\(s.c)")
            stateRules[s] = r
            pending.append((s, r))
            return .rule(r)
        }
        // Member i written, then the state after it. States that differ only in what was written before
        // (first member or not) reach the same state after it, so this is one rule they all refer to in
        // tail position: the member's name, colon and value are spelled once, not once per state
        // (Kubernetes' `Volume`, 29 members whose values are inlined objects: 9,820 → 5,600 NFA states).
        var presentRules: [State: RuleID] = [:]
        func presentRule(_ after: State, _ me: inout SchemaLowering) -> GrammarExpr {
            if let r = presentRules[after] { return .rule(r) }
            let i = after.i - 1
            let r = me.grammar.addRule(name: "member:\(pointer)#\(i)", body: .seq([memberExprs[i], ruleFor(after, &me)]))
            presentRules[after] = r
            return .rule(r)
        }
        func present(_ mask: UInt64, _ i: Int) -> Bool { tracked[i].map { mask & (1 << UInt64($0)) != 0 } ?? false }
        func body(_ s: State, _ me: inout SchemaLowering) -> GrammarExpr {
            // s.c counts declared members written; past the declared ones, k = s.i - n undeclared members.
            let k = max(0, s.i - n)
            let written = s.c > 0 || k > 0
            let lead: GrammarExpr = written ? me.sep : .empty
            let nextC = min(s.c + 1, cap)
            if s.i >= n {
                let canClose = s.c + min(k, 1) >= o.minProperties
                let canAdd = o.maxProperties == nil || s.c + k + 1 <= o.maxProperties!
                let unlimited = undeclaredLimit == Int.max
                var more: GrammarExpr = .nothing
                if !undeclaredMember.isNothing && canAdd && (unlimited || k < undeclaredLimit) {
                    let nextK = min(k + 1, undeclaredCap)
                    more = .seq([undeclaredMember, ruleFor(State(i: n + nextK, c: s.c, mask: s.mask), &me)])
                }
                return me.closeOrMore(written: written, canClose: canClose, more: more)
            }
            let canAdd = o.maxProperties == nil || s.c + 1 <= o.maxProperties!
            let m = members[s.i]
            var mayBePresent = !m.forbidden && canAdd
            var mayBeAbsent = !m.required
            for d in deps {
                if d.b == s.i, d.a < s.i, present(s.mask, d.a) { mayBeAbsent = false }
                if d.a == s.i, d.b < s.i, !present(s.mask, d.b) { mayBePresent = false }
                if d.a == s.i, d.b > s.i, members[d.b].forbidden { mayBePresent = false }
            }
            var alts: [GrammarExpr] = []
            if mayBePresent {
                var mask = s.mask
                if let t = tracked[s.i] { mask |= 1 << UInt64(t) }
                alts.append(.seq([lead, presentRule(State(i: s.i + 1, c: nextC, mask: mask), &me)]))
            }
            if mayBeAbsent { alts.append(ruleFor(State(i: s.i + 1, c: s.c, mask: s.mask), &me)) }
            return .alt(alts)
        }
        let start = ruleFor(State(i: 0, c: 0, mask: 0), &self)
        while let (s, r) = pending.popLast() {
            grammar.define(r, as: body(s, &self))
            if overflow { break }
        }
        if overflow {
            throw JSONSchemaCompileError(.tooComplex, keyword: "properties", pointer: pointer, detail: "member automaton over \(limit) states")
        }
        return .seq([.literal("{"), ws, start])
    }
}

extension SchemaLowering {
    /// The schemas that apply to member `key`: per part, its declared property, else every matching
    /// `patternProperties` schema too, else its `additionalProperties`.
    mutating func memberNodes(_ f: SchemaFacts, _ key: String) throws(JSONSchemaCompileError) -> [Int] {
        var out: [Int] = []
        for p in f.objectParts {
            // patternProperties apply to every matching name, declared or not; additionalProperties only
            // to names neither declared nor matched.
            var matched = false
            if let d = p.properties.first(where: { $0.name == key }) { out.append(d.node); matched = true }
            for pat in p.patterns where try patternDFA(pat.source, pointer: p.pointer, keyword: "patternProperties").matches(JSONText.encodeContent(key)) {
                out.append(pat.node); matched = true
            }
            if !matched, let a = p.additional { out.append(a) }
        }
        return out
    }

    /// One undeclared member: its name is none of `excluding`; the name space is split by which
    /// `patternProperties` patterns match, each region with the conjunction of the schemas that apply.
    mutating func undeclaredMembers(_ f: SchemaFacts, excluding names: [String], defaultAllowed: Bool,
                                    nameLanguage: ByteDFA? = nil) throws(JSONSchemaCompileError) -> GrammarExpr {
        let key = UndeclaredKey(f, names: names, defaultAllowed: defaultAllowed, restricted: nameLanguage != nil)
        if let known = undeclaredExprs[key] { return known }
        let e = try makeUndeclaredMembers(f, excluding: names, defaultAllowed: defaultAllowed, nameLanguage: nameLanguage)
        undeclaredExprs[key] = e
        return e
    }

    /// Distinct `patternProperties` patterns one object may combine: the name space splits into regions
    /// by which patterns match, labelled in one product automaton, whose state limit is the real bound
    /// (only the regions some name realizes are analysed: with 19 prefixed patterns, about 19).
    static let maxNamePatterns = 32
    /// Patterns up to which, past that product's limit, each region gets an automaton of its own.
    static let maxRegionPatterns = 4

    private mutating func makeUndeclaredMembers(_ f: SchemaFacts, excluding names: [String], defaultAllowed: Bool,
                                                nameLanguage: ByteDFA?) throws(JSONSchemaCompileError) -> GrammarExpr {
        var patterns: [String] = []
        var pointerOf: [String: String] = [:]
        for p in f.objectParts { for pat in p.patterns where !patterns.contains(pat.source) { patterns.append(pat.source); pointerOf[pat.source] = p.pointer } }
        if patterns.isEmpty && nameLanguage == nil {
            let nodes = f.objectParts.compactMap(\.additional)
            let value = try elementExpr(nodes)
            return .seq([.literal("\""), notIn(names), .literal("\""), colon, value])
        }
        guard patterns.count <= Self.maxNamePatterns else {
            throw JSONSchemaCompileError(.tooComplex, keyword: "patternProperties", pointer: f.objectPointer,
                                         detail: "more than \(Self.maxNamePatterns) name patterns combined")
        }
        // Every name, or those `propertyNames` allows (its automaton reads content only: no other bytes).
        let universe: ByteDFA
        if let l = nameLanguage { universe = l } else { universe = try anyContentDFA() }
        var dfas: [ByteDFA] = []
        for p in patterns { dfas.append(try patternDFA(p, pointer: pointerOf[p]!, keyword: "patternProperties")) }
        // The parts: names matching exactly the patterns of a subset, with the schemas that apply; nil
        // for a subset whose schemas no value satisfies (its names are not allowed). Made for the subsets
        // some name realizes, as the product below meets them (not for all 2^k).
        var partNodes: [Int: [Int]?] = [:]
        func part(_ subset: Int) -> [Int]? {
            if let known = partNodes[subset] { return known }
            var nodes: [Int]? = []
            if subset == 0 && !defaultAllowed { nodes = nil }
            for p in f.objectParts where nodes != nil {
                var matched = false
                for pat in p.patterns {
                    let i = patterns.firstIndex(of: pat.source)!
                    if subset & (1 << i) != 0 { nodes!.append(pat.node); matched = true }
                }
                if !matched, let a = p.additional { nodes!.append(a) }
            }
            if let n = nodes, !n.isEmpty {
                // An analysis that fails keeps the part: lowering its value reports the error.
                if let (flat, facts) = try? analyze(SchemaLowering.normalize(n.map { Conjunct(node: $0, full: true) })),
                   flat.unsatisfiable || facts.unsatisfiable { nodes = nil }
            }
            partNodes[subset] = nodes
            return nodes
        }
        // Patterns that each match finitely many names, or all but finitely many: only the names they
        // list can be in a part other than the default one, so the names need no product automaton
        // (see `FinitePatternSplit`).
        if nameLanguage == nil, let split = try finitePatternSplit(patterns, dfas, pointerOf: pointerOf, declared: names) {
            // Each part's value is one rule, entered after the closing quote from every accepting state of
            // that part (in tail position: the builder makes one copy of it); nothing where the part's
            // names are not allowed.
            var valueEnds: [Int: GrammarExpr] = [:]
            func end(_ subset: Int?) throws(JSONSchemaCompileError) -> GrammarExpr {
                guard let subset, let nodes = part(subset) else { return .nothing }
                if let known = valueEnds[subset] { return known }
                let rule = grammar.addRule(name: "member:\(f.objectPointer)#part\(subset)", body: .seq([colon, try elementExpr(nodes)]))
                valueEnds[subset] = .seq([.literal("\""), .rule(rule)])
                return valueEnds[subset]!
            }
            // Declared names are not accepted here (their members are elsewhere).
            var words = names, wordEnds = names.map { _ in GrammarExpr.nothing }
            for (name, subset) in split.listed {
                words.append(name)
                wordEnds.append(try end(subset))
            }
            let ends = [try end(split.defaultPart), try end(split.lineBreakPart)]
            let key = try nameDispatch(words, wordEnds: wordEnds, lineBreaks: split.lineBreakPart != nil, ends: ends)
            return key.isNothing ? .nothing : .seq([.literal("\""), key])
        }
        let namesDFA = try literalsAutomaton(names, keyword: "properties", pointer: f.objectPointer)
        // One name automaton for all parts, its accepting states labelled with their part, so the mask
        // engine follows one NFA state per name position (see `LabelledProduct`). Past the automaton
        // limit, one automaton per part as before.
        if let product = try? LabelledProduct([universe, namesDFA] + dfas, limits: automatonLimits, label: { accepts in
            guard accepts[0] && !accepts[1] else { return nil }
            var subset = 0
            for i in 0..<patterns.count where accepts[i + 2] { subset |= 1 << i }
            return part(subset) != nil ? subset : nil
        }) {
            if product.automaton.isEmpty { return .nothing }
            // Each part's value is one rule, entered after the closing quote from every accepting state of
            // that part (in tail position: the builder makes one copy of it).
            var valueRule: [Int: RuleID] = [:]
            for case let subset? in Set(product.labels) {
                valueRule[subset] = grammar.addRule(name: "member:\(f.objectPointer)#part\(subset)",
                                                    body: .seq([colon, try elementExpr(part(subset)!)]))
            }
            let key = product.automaton.ruleExpression(into: &grammar, name: "name") { s -> GrammarExpr in
                GrammarExpr.seq([.literal("\""), .rule(valueRule[product.labels[s]!]!)])
            }
            return .seq([.literal("\""), key])
        }
        // One automaton per part: 2^k regions, each k products, so only for a few patterns.
        guard patterns.count <= Self.maxRegionPatterns else {
            throw JSONSchemaCompileError(.tooComplex, keyword: "patternProperties", pointer: f.objectPointer,
                                         detail: "the names of \(patterns.count) patterns and \(names.count) declared names need more than \(automatonLimits.maxDFAStates) automaton states")
        }
        var regions: [GrammarExpr] = []
        for subset in 0..<(1 << patterns.count) {
            guard let nodes = part(subset) else { continue }
            var region = universe
            do {
                for (i, d) in dfas.enumerated() {
                    region = subset & (1 << i) != 0 ? try region.intersection(d, limits: automatonLimits)
                                                    : try region.subtracting(d, limits: automatonLimits)
                }
                region = try region.subtracting(namesDFA, limits: automatonLimits)
            } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: "patternProperties", pointer: f.objectPointer, detail: error.description)
            }
            if region.isEmpty { continue }
            // The closing quote goes inside the name automaton: its per-state rules are then referred to
            // in tail position only and are inlined as one group; with the quote after it, the rules of a
            // cyclic name automaton could stay calls whose states all accept, and every mask in a key
            // took the general walk (o88608's language tags: 6-10 ms at `{"en-US`).
            let key = region.grammarExpr(into: &grammar, name: "name", followedBy: .literal("\""))
            regions.append(.seq([.literal("\""), key, colon, try elementExpr(nodes)]))
        }
        return .alt(regions)
    }
}

/// Everything `undeclaredMembers` reads that shapes its expression: the excluded names, each object
/// part's patterns and additional schema, and the `propertyNames` locations. Equal keys give equal
/// expressions, so objects at other locations with the same members share one (pointers only name rules
/// and errors, and an expression is remembered only once it was made without error): a schema whose
/// alternatives combine the same member sets made each one's name automaton again (web-types: 102 calls).
struct UndeclaredKey: Hashable {
    struct Part: Hashable {
        var patterns: [String]
        var patternNodes: [Int]
        var additional: Int?
    }
    var names: [String]
    var parts: [Part]
    var defaultAllowed: Bool
    /// The names are restricted by `propertyNames` (its locations, in `propertyNames`).
    var propertyNames: [Int]

    init(_ f: SchemaFacts, names: [String], defaultAllowed: Bool, restricted: Bool) {
        self.names = names
        propertyNames = restricted ? f.propertyNames : []
        parts = f.objectParts.map { Part(patterns: $0.patterns.map(\.source), patternNodes: $0.patterns.map(\.node), additional: $0.additional) }
        self.defaultAllowed = defaultAllowed
    }
}
