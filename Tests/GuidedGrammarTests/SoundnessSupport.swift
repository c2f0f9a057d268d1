import Foundation
import GuidedSchema
@testable import GuidedGrammar

/// Random texts drawn from a grammar's own language: a random walk over its expressions that switches,
/// past a depth or size budget, to the alternative of least derivation height (so it always ends).
/// Every text it returns is in the language by construction, so each one the validator rejects is an
/// unsound acceptance: the sampler reaches corners (patterns, formats, number automata) that a fixed
/// pool of instances cannot.
struct GrammarSampler {
    let grammar: Grammar
    /// Least derivation height of each rule (nil: the rule derives no string at all).
    private var ruleHeight: [Int?]

    init(_ grammar: Grammar) {
        self.grammar = grammar
        ruleHeight = Array(repeating: nil, count: grammar.rules.count)
        var changed = true
        while changed {
            changed = false
            for i in grammar.rules.indices {
                guard let h = height(grammar.rules[i].body).map({ $0 + 1 }) else { continue }
                if ruleHeight[i] == nil || h < ruleHeight[i]! { ruleHeight[i] = h; changed = true }
            }
        }
    }

    private func height(_ e: GrammarExpr) -> Int? {
        switch e {
        case .empty, .bytes: return 0
        case .nothing: return nil
        case .byteSet(let s): return s.isEmpty ? nil : 0
        case .sequence(let parts):
            var m = 0
            for p in parts { guard let h = height(p) else { return nil }; m = max(m, h) }
            return m
        case .choice(let alts): return alts.compactMap { height($0) }.min()
        case .repeat(let inner, let lo, _): return lo == 0 ? 0 : height(inner)
        case .rule(let id): return ruleHeight[id.index]
        case .token, .tokenBudget: return nil   // token-level; these grammars have none
        }
    }

    /// One text of the language, or nil when the language is empty.
    func sample(_ rng: inout DifferentialGenerator, depthBudget: Int = 14, sizeBudget: Int = 400) -> [UInt8]? {
        guard ruleHeight[grammar.start.index] != nil else { return nil }
        var out: [UInt8] = []
        generate(.rule(grammar.start), depth: 0, &out, &rng, depthBudget, sizeBudget)
        return out
    }

    private func generate(_ e: GrammarExpr, depth: Int, _ out: inout [UInt8], _ rng: inout DifferentialGenerator, _ depthBudget: Int, _ sizeBudget: Int) {
        let closing = depth > depthBudget || out.count > sizeBudget
        switch e {
        case .empty, .nothing, .token, .tokenBudget: return
        case .bytes(let b): out.append(contentsOf: b)
        case .byteSet(let s):
            let members = s.members
            out.append(members[Int(rng.next() % UInt64(members.count))])
        case .sequence(let parts):
            for p in parts { generate(p, depth: depth, &out, &rng, depthBudget, sizeBudget) }
        case .choice(let alts):
            let live = alts.compactMap { a in height(a).map { (a, $0) } }
            let pick: GrammarExpr
            if closing {
                let least = live.map(\.1).min()!
                let lowest = live.filter { $0.1 == least }
                pick = lowest[Int(rng.next() % UInt64(lowest.count))].0
            } else {
                pick = live[Int(rng.next() % UInt64(live.count))].0
            }
            generate(pick, depth: depth, &out, &rng, depthBudget, sizeBudget)
        case .repeat(let inner, let lo, let hi):
            var n = lo
            if !closing && height(inner) != nil {
                let top = min(hi ?? lo + 3, lo + 3)
                if top > lo { n = lo + Int(rng.next() % UInt64(top - lo + 1)) }
            }
            for _ in 0..<n { generate(inner, depth: depth, &out, &rng, depthBudget, sizeBudget) }
        case .rule(let id):
            generate(grammar.rules[id.index].body, depth: depth + 1, &out, &rng, depthBudget, sizeBudget)
        }
    }
}

/// The instances the differential test tries against one schema: a fixed pool covering every JSON type
/// and the usual edges, plus values harvested from the schema (const/enum values, property names as keys,
/// numbers around every bound and multiple, strings and arrays around every length).
enum SoundnessInstancePool {
    static let baseTexts: [String] = [
        "null", "true", "false", "0", "-0", "1", "-1", "2", "3", "1.5", "2.5", "10", "100", "0.5", "-1.5", "1.0", "-2", "7",
        #""""#, #""a""#, #""ab""#, #""abc""#, #""x""#, #""abcd""#, #""1""#, #""A""#, #""é""#, #""😀""#, #""aa""#, #""b""#,
        #""2024-01-02""#, #""a@b.co""#, #""192.168.0.1""#, #""::1""#, #""http://x.y""#, #""foo""#, #""bar""#, #""a b""#,
        "[]", "[1]", "[1,2]", #"["a"]"#, "[null]", "[1,1]", #"[1,"a"]"#, "[[]]", "[{}]", "[1,2,3]", "[true]", #"["a","b"]"#, "[1.5]",
        "{}", #"{"a":1}"#, #"{"b":1}"#, #"{"a":1,"b":2}"#, #"{"b":1,"a":2}"#, #"{"a":"x"}"#, #"{"a":null}"#,
        #"{"a":{"b":1}}"#, #"{"a":[1]}"#, #"{"c":1}"#, #"{"foo":1}"#, #"{"bar":1}"#, #"{"a":true}"#, #"{"":1}"#, #"{"a":{}}"#,
    ]
    static let base: [JSONValue] = baseTexts.map { try! JSONParser.parse($0) }

    /// The pool for `schema`: `extra` first (e.g. a suite's own instances), then the harvest, then the base
    /// pool; deduplicated by compact text and cut to `limit` by an even stride (deterministic).
    static func pool(for schema: JSONValue, extra: [JSONValue] = [], limit: Int) -> [JSONValue] {
        var h = Harvest()
        h.walk(schema, depth: 0)
        var seen = Set<String>()
        var out: [JSONValue] = []
        func add(_ v: JSONValue) { if seen.insert(v.serialized(.compact)).inserted { out.append(v) } }
        extra.forEach(add)
        let fixed = out.count
        h.instances().forEach(add)
        base.forEach(add)
        guard out.count > limit else { return out }
        let rest = Array(out[fixed...])
        let room = max(limit - fixed, 0)
        let stride = Double(rest.count) / Double(max(room, 1))
        return Array(out[..<fixed]) + (0..<room).map { rest[Int(Double($0) * stride)] }
    }

    /// What a schema's keywords suggest as interesting instances.
    struct Harvest {
        var literals: [JSONValue] = []
        var names: [String] = []
        var numbers: [Double] = []
        var lengths: [Int] = []
        var counts: [Int] = []

        mutating func walk(_ v: JSONValue, depth: Int) {
            guard depth < 12 else { return }
            switch v {
            case .array(let items): for i in items { walk(i, depth: depth + 1) }
            case .object(let o):
                for (key, value) in o.entries {
                    switch key {
                    case "const", "default": if literals.count < 40 { literals.append(value) }
                    case "enum", "examples": if let a = value.arrayValue { literals.append(contentsOf: a.prefix(12)) }
                    case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
                        if let n = value.numberValue?.doubleValue, n.isFinite { numbers.append(n) }
                        if key == "multipleOf", let n = value.numberValue?.doubleValue, n.isFinite { numbers.append(contentsOf: [n * 2, n * 3, n / 2, n * 1.5, -n]) }
                    case "minLength", "maxLength":
                        if let n = value.numberValue?.doubleValue, n >= 0, n < 40 { lengths.append(Int(n)) }
                    case "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
                        if let n = value.numberValue?.doubleValue, n >= 0, n < 8 { counts.append(Int(n)) }
                    case "required":
                        if let a = value.arrayValue { names.append(contentsOf: a.compactMap(\.stringValue)) }
                    case "properties", "dependentRequired", "dependentSchemas", "dependencies", "patternProperties":
                        if let m = value.objectValue {
                            names.append(contentsOf: m.keys.map(key == "patternProperties" ? Harvest.literalPart : { $0 }))
                            for (_, dv) in m.entries { if let req = dv.arrayValue { names.append(contentsOf: req.compactMap(\.stringValue)) } }
                        }
                    default: break
                    }
                    walk(value, depth: depth + 1)
                }
            default: break
            }
        }

        /// A rough literal reading of a property-name pattern ("^x-" → "x-"), to use as a key.
        static func literalPart(_ pattern: String) -> String {
            String(pattern.filter { !"^$.*+?()[]{}|\\".contains($0) })
        }

        func instances() -> [JSONValue] {
            var out: [JSONValue] = []
            let lits = uniqued(literals)
            out.append(contentsOf: lits)
            var nums: [Double] = []
            for n in numbers { nums.append(contentsOf: [n, n - 1, n + 1, n - 0.5, n + 0.5, n - 0.01, n + 0.01, n.rounded(.down), n.rounded(.up), -n]) }
            for n in nums { if let v = Harvest.number(n) { out.append(v) } }
            for n in lengths {
                for k in [n - 1, n, n + 1] where k >= 0 {
                    out.append(.string(String(repeating: "a", count: k)))
                    out.append(.string(String(repeating: "é", count: k)))
                }
            }
            let someNames = Array(uniquedStrings(names).prefix(8))
            let fillers: [JSONValue] = [1, "x", nil, true, [:], [], 1.5] + lits.prefix(4)
            for k in uniquedInts(counts) {
                for c in [k - 1, k, k + 1] where c >= 0 {
                    out.append(.array(Array(repeating: 1, count: c)))
                    out.append(.array((0..<c).map { .number(JSONNumber($0)) }))
                    out.append(.object(JSONObject((0..<c).map { (someNames.count > $0 ? someNames[$0] : "k\($0)", JSONValue.number(JSONNumber(1))) })))
                }
            }
            for l in lits.prefix(6) { out.append(contentsOf: [.array([l]), .array([l, l]), .array([1, l]), .array([l, 1])]) }
            for name in someNames {
                for v in fillers { out.append(.object(JSONObject([(name, v)]))) }
                out.append(.object(JSONObject([(name, .object(JSONObject([(name, 1)])))])))
            }
            for i in someNames.indices {
                for j in someNames.indices where i != j {
                    out.append(.object(JSONObject([(someNames[i], 1), (someNames[j], 1)])))
                    out.append(.object(JSONObject([(someNames[i], "x"), (someNames[j], "x")])))
                }
            }
            if !someNames.isEmpty {
                for v in fillers.prefix(4) { out.append(.object(JSONObject(someNames.map { ($0, v) }))) }
                out.append(.object(JSONObject(someNames.map { ($0, 1) } + [("zz", 1)])))
            }
            return out
        }

        static func number(_ d: Double) -> JSONValue? {
            guard d.isFinite, abs(d) < 1e15 else { return nil }
            let text = d == d.rounded() ? String(Int64(d)) : "\(d)"
            return try? JSONParser.parse(text)
        }

        private func uniqued(_ vs: [JSONValue]) -> [JSONValue] {
            var seen = Set<String>()
            return vs.filter { seen.insert($0.serialized(.compact)).inserted }
        }
        private func uniquedStrings(_ vs: [String]) -> [String] { var seen = Set<String>(); return vs.filter { seen.insert($0).inserted } }
        private func uniquedInts(_ vs: [Int]) -> [Int] { var seen = Set<Int>(); return vs.filter { seen.insert($0).inserted } }
    }
}
