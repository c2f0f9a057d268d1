import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar
import GuidedTestSupport

/// Differential soundness test, grammar against validator: for every schema that compiles, every instance
/// the grammar accepts must be valid by `JSONSchemaValidator`. The instances are a generated pool (every
/// type and edge, plus values harvested from the schema) and texts sampled from the grammar's own
/// language. A grammar that rejects a valid instance is an allowed departure: counted, never failed.
///
/// Schemas: the `SchemaCase` tables of the keyword and negation tests, a crafted set that puts negation
/// and combinators over keywords of another type than the instance (the class of the `not: {minimum: 3}`
/// accepting `"x"` bug), and the JSON Schema Test Suite (draft 7 and 2020-12, required tests) with its own
/// instances. Every disagreement was adjudicated with Python `jsonschema`; the unsound cases it found are
/// fixed and kept as exact cases (`fixedCases`, `propertyNamesNegations`).
///
/// The default run samples (every 23rd binary probe, pools of 70-300 values, a few grammar samples) to stay
/// under a minute in a debug build; `SOUNDNESS_FULL=1 swift test --filter SoundnessDifferentialTests` checks
/// every probe with larger pools and more samples (about 1M instance checks, several minutes).
@Suite struct SoundnessDifferentialTests {
    struct Tally {
        var schemas = 0, refused = 0, instances = 0, accepted = 0, validRejected = 0
        var unsound: [String] = []

        mutating func add(_ o: Tally) {
            schemas += o.schemas; refused += o.refused; instances += o.instances; accepted += o.accepted
            validRejected += o.validRejected; unsound += o.unsound
        }
        var summary: String {
            "schemas \(schemas) compiled (+\(refused) refused), \(instances) instance checks, \(accepted) accepted, \(validRejected) valid rejected (allowed), \(unsound.count) unsound"
        }
    }

    /// Found by this test and fixed (SchemaLowering+Containers.swift): `propertyNames` holding a negation
    /// that is not a plain type/enum/const test took undeclared member names as unrestricted, so any name
    /// was accepted. Schema text → an instance the validator and Python jsonschema 4.26 call invalid; each
    /// schema must now be refused or reject it.
    static let propertyNamesNegations: [String: String] = [
        #"{"propertyNames":{"not":{"pattern":"^a"}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"items":{"type":"integer"}}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"contains":{"const":1}}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"prefixItems":[{"type":"string"}]}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"uniqueItems":true}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"properties":{"a":{"type":"string"}}}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"additionalProperties":false}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"propertyNames":{"maxLength":1}}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"patternProperties":{"^a":{"type":"integer"}}}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"dependentRequired":{"a":["b"]}}}}"#: #"{"a":1}"#,
        #"{"propertyNames":{"not":{"dependentSchemas":{"a":{"required":["b"]}}}}}"#: #"{"a":1}"#,
    ]

    /// Schemas whose *sampled* texts the validator misjudges (adjudicated with Python jsonschema 4.26); the
    /// fixed pool is still checked. Schema text → why.
    static let validatorQuirks: [String: String] = [
        // The grammar's \p{Letter} follows Swift's Unicode 16 tables, the validator's PCRE2 10.42 an older
        // Unicode: U+10D51 (Garay, Unicode 16) is a letter only for the grammar.
        #"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string","pattern":"^\\p{Letter}+$"}"#: "Unicode version",
    ]

    static let options = JSONSchemaValidator.Options(formatAssertion: true)

    /// Compiles `schema` and checks the pool (and `samples` texts drawn from the grammar) against the
    /// validator. A refused schema counts as refused and checks nothing.
    static func check(_ schema: JSONValue, draft: JSONSchemaDraft, extra: [JSONValue] = [], poolLimit: Int, samples: Int, seed: UInt64) -> Tally {
        var t = Tally()
        let grammar: Grammar
        do {
            grammar = try JSONSchemaCompiler.compile(schema, options: JSONSchemaCompileOptions(whitespace: .compact, defaultDraft: draft))
        } catch { t.refused = 1; return t }
        t.schemas = 1
        // (The matcher answers where the reference recognizer cannot: member sets, distinct items.)
        guard let recognizer = try? GrammarMembership.Oracle(answering: grammar) else { t.unsound.append("no recognizer for \(schema.serialized(.compact))"); return t }
        let validator = JSONSchemaValidator(schema: schema, defaultDraft: draft, options: options)
        let schemaText = schema.serialized(.compact)
        let quirky = validatorQuirks[schemaText] != nil
        for instance in SoundnessInstancePool.pool(for: schema, extra: extra, limit: poolLimit) {
            let text = instance.serialized(.compact)
            t.instances += 1
            let accepted = recognizer.accepts(text)
            let valid = validator.isValid(instance)
            if accepted { t.accepted += 1 }
            if accepted && !valid { t.unsound.append("\(schemaText) ACCEPTS \(text)") }
            if !accepted && valid { t.validRejected += 1 }
        }
        guard samples > 0 else { return t }
        var rng = DifferentialGenerator(seed: seed)
        let sampler = GrammarSampler(grammar)
        for _ in 0..<samples {
            guard let bytes = sampler.sample(&rng) else { break }
            // The sampler walks the grammar alone; the matcher's predicates (distinct items) may refuse
            // what it writes, and only what the oracle accepts is an accepted instance.
            if recognizer.kind == "matcher", !recognizer.accepts(bytes) { continue }
            t.instances += 1
            t.accepted += 1
            guard let text = String(bytes: bytes, encoding: .utf8), let value = try? JSONParser.parse(text) else {
                t.unsound.append("\(schemaText) ACCEPTS non-JSON \(bytes)"); continue
            }
            if !validator.isValid(value) && !quirky {
                t.unsound.append("\(schemaText) ACCEPTS \(text) (sampled)")
            }
        }
        return t
    }

    static func report(_ name: String, _ t: Tally) {
        print("soundness \(name): \(t.summary)")
        // One line per schema: how many instances it wrongly accepts, and the first two.
        var bySchema: [String: [String]] = [:]
        var order: [String] = []
        for u in t.unsound {
            let parts = u.components(separatedBy: " ACCEPTS ")
            if bySchema[parts[0]] == nil { order.append(parts[0]) }
            bySchema[parts[0], default: []].append(parts.dropFirst().joined(separator: " ACCEPTS "))
        }
        for s in order { print("UNSOUND \(name): \(s) ACCEPTS \(bySchema[s]!.count): \(bySchema[s]!.prefix(2).joined(separator: "  |  "))") }
    }

    // MARK: the existing exact-case tables

    @Test func existingCaseTables() throws {
        var t = Tally()
        let tables = JSONSchemaKeywordTests.cases + JSONSchemaNegationTests.cases
        for (i, c) in tables.enumerated() {
            let schema = try JSONParser.parse(c.schema)
            let own = (c.accept + c.reject).compactMap { try? JSONParser.parse($0) }
            let draft = c.options.defaultDraft
            t.add(Self.check(schema, draft: draft, extra: own, poolLimit: 300, samples: 60, seed: UInt64(i + 1)))
        }
        Self.report("case tables", t)
        #expect(t.schemas > 80)
        #expect(t.unsound.isEmpty)
    }

    // MARK: crafted negation / combinator probes

    /// Keywords that constrain one instance type each (and hold for every other type), plus type tests.
    static let atoms: [String] = [
        #"{"minimum":3}"#, #"{"maximum":2}"#, #"{"exclusiveMinimum":0}"#, #"{"multipleOf":2}"#,
        #"{"minLength":2}"#, #"{"maxLength":1}"#, #"{"pattern":"^a"}"#, #"{"format":"date"}"#,
        #"{"minItems":1}"#, #"{"maxItems":1}"#, #"{"items":{"type":"integer"}}"#, #"{"contains":{"const":1}}"#,
        #"{"prefixItems":[{"type":"string"}]}"#, #"{"uniqueItems":true}"#,
        #"{"required":["a"]}"#, #"{"required":["a","b"]}"#, #"{"minProperties":1}"#, #"{"maxProperties":1}"#,
        #"{"properties":{"a":{"type":"string"}}}"#, #"{"additionalProperties":false}"#, #"{"propertyNames":{"maxLength":1}}"#,
        #"{"patternProperties":{"^a":{"type":"integer"}}}"#, #"{"dependentRequired":{"a":["b"]}}"#,
        #"{"dependentSchemas":{"a":{"required":["b"]}}}"#,
        #"{"type":"string"}"#, #"{"type":"integer"}"#, #"{"type":"object"}"#, #"{"type":"array"}"#, #"{"type":"null"}"#,
        #"{"const":1}"#, #"{"enum":["a",1]}"#, #"{"const":"a"}"#, "true", "false",
    ]

    /// Templates over one atom X.
    static let unary: [String] = [
        #"{"not":X}"#, #"{"not":{"not":X}}"#, #"{"type":"string","not":X}"#, #"{"type":"integer","not":X}"#,
        #"{"type":"object","not":X}"#, #"{"type":"array","not":X}"#, #"{"type":["null","boolean"],"not":X}"#,
        #"{"properties":{"a":{"not":X}}}"#, #"{"items":{"not":X}}"#, #"{"contains":{"not":X}}"#,
        #"{"propertyNames":{"not":X}}"#, #"{"additionalProperties":{"not":X}}"#, #"{"patternProperties":{"^a":{"not":X}}}"#,
        #"{"dependentSchemas":{"a":{"not":X}}}"#, #"{"prefixItems":[{"not":X}]}"#,
        #"{"not":{"properties":{"a":X}}}"#, #"{"not":{"items":X}}"#, #"{"not":{"contains":X}}"#, #"{"not":{"propertyNames":X}}"#,
        #"{"not":{"additionalProperties":X}}"#, #"{"not":{"dependentSchemas":{"a":X}}}"#, #"{"not":{"prefixItems":[X]}}"#,
        #"{"not":{"patternProperties":{"^a":X}}}"#, #"{"if":X,"then":false}"#, #"{"if":X,"else":false}"#,
        #"{"oneOf":[X,{"type":"string"}]}"#, #"{"oneOf":[X,true]}"#, #"{"anyOf":[{"not":X},{"type":"null"}]}"#,
        #"{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":X}}"#,
        #"{"$schema":"http://json-schema.org/draft-07/schema#","not":{"dependencies":{"a":X}}}"#,
        #"{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"not":X}],"additionalItems":X}"#,
    ]

    /// Templates over two atoms X and Y.
    static let binary: [String] = [
        #"{"not":{"allOf":[X,Y]}}"#, #"{"not":{"anyOf":[X,Y]}}"#, #"{"not":{"oneOf":[X,Y]}}"#,
        #"{"if":X,"then":Y}"#, #"{"if":X,"else":Y}"#, #"{"if":X,"then":Y,"else":{"not":Y}}"#, #"{"not":{"if":X,"then":Y}}"#,
        #"{"oneOf":[X,Y]}"#, #"{"anyOf":[X,Y]}"#, #"{"allOf":[X,{"not":Y}]}"#, #"{"not":X,"anyOf":[Y]}"#,
        #"{"properties":{"a":{"not":X}},"not":Y}"#, #"{"oneOf":[{"not":X},Y]}"#,
    ]

    static func crafted(binaryStride: Int) -> [String] {
        var out: [String] = []
        for template in unary { for x in atoms { out.append(template.replacingOccurrences(of: "X", with: x)) } }
        var k = 0
        for template in binary {
            for x in atoms {
                for y in atoms where x != y {
                    k += 1
                    if k % binaryStride == 0 {
                        out.append(template.replacingOccurrences(of: "X", with: x).replacingOccurrences(of: "Y", with: y))
                    }
                }
            }
        }
        // Two levels: some binary probes again under a member, an item, a negation and an anyOf.
        let wrappers = [#"{"properties":{"a":S}}"#, #"{"items":S}"#, #"{"not":S}"#, #"{"anyOf":[S,{"type":"string"}]}"#]
        let pairs = out.count
        for (i, inner) in out[(pairs / 3)...].enumerated() where i % (binaryStride * 3) == 0 {
            out.append(wrappers[i / (binaryStride * 3) % wrappers.count].replacingOccurrences(of: "S", with: inner))
        }
        return out
    }

    @Test func craftedNegationProbes() throws {
        let full = ProcessInfo.processInfo.environment["SOUNDNESS_FULL"] != nil
        var t = Tally()
        for (i, text) in Self.crafted(binaryStride: full ? 1 : 23).enumerated() {
            let schema = try JSONParser.parse(text)
            t.add(Self.check(schema, draft: .draft2020_12, poolLimit: full ? 400 : 160, samples: full ? 40 : 6, seed: UInt64(i + 1000)))
        }
        Self.report("crafted", t)
        #expect(t.schemas > 300)
        #expect(t.unsound.isEmpty)
    }

    // MARK: JSON Schema Test Suite

    static func suiteGroups(_ draft: String) throws -> [(file: String, schema: JSONValue, instances: [JSONValue])] {
        let dir = JSONSchemaTestSupport.sharedRoot.appendingPathComponent("corpora/json-schema-test-suite/tests/\(draft)")
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        var out: [(String, JSONValue, [JSONValue])] = []
        for file in files {
            guard case .array(let groups) = try JSONParser.parse(String(contentsOf: file, encoding: .utf8)) else { continue }
            for group in groups {
                guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                out.append((file.lastPathComponent, schema, tests.compactMap { $0["data"] }))
            }
        }
        return out
    }

    @Test(.enabled(if: SharedData.present(for: "SoundnessDifferentialTests (Test Suite)")), arguments: ["draft7", "draft2020-12"])
    func jsonSchemaTestSuite(_ draftName: String) throws {
        let full = ProcessInfo.processInfo.environment["SOUNDNESS_FULL"] != nil
        let draft = JSONSchemaDraft(rawValue: draftName)!
        var t = Tally()
        let groups = try SoundnessDifferentialTests.suiteGroups(draftName)
        for (i, g) in groups.enumerated() {
            t.add(Self.check(g.schema, draft: draft, extra: g.instances, poolLimit: full ? 300 : 70, samples: full ? 40 : 4, seed: UInt64(i + 5000)))
        }
        Self.report("jsts \(draftName)", t)
        #expect(t.schemas > 200)
        #expect(t.unsound.isEmpty)
    }

    // MARK: known unsound cases

    @Test func propertyNamesNegationsAreRefusedOrRejected() throws {
        for (schemaText, instanceText) in SoundnessDifferentialTests.propertyNamesNegations.sorted(by: { $0.key < $1.key }) {
            let schema = try JSONParser.parse(schemaText)
            let instance = try JSONParser.parse(instanceText)
            #expect(!JSONSchemaValidator(schema: schema, options: SoundnessDifferentialTests.options).isValid(instance), "validator must reject \(instanceText)")
            guard let grammar = try? JSONSchemaCompiler.compile(schema, options: JSONSchemaCompileOptions(whitespace: .compact)) else { continue }
            #expect(!JSONSchemaTestSupport.accepts(grammar, instanceText), "\(schemaText) accepts the invalid \(instanceText)")
        }
    }

    /// The distribution bug fixed with this test (SchemaLowering+Merge.swift): a conjunction's negations,
    /// negated keywords, member presence/absence and type restriction were dropped from every alternative
    /// when it also had an anyOf/oneOf/if/dependentSchemas group to distribute.
    static let fixedCases: [SchemaCase] = [
        SchemaCase(schema: #"{"not":{"maxLength":1},"anyOf":[{"dependentSchemas":{"a":{"required":["b"]}}}]}"#,
                   accept: [#""ab""#, #""abc""#], reject: [#""""#, #""a""#, "1", "null"]),
        SchemaCase(schema: #"{"oneOf":[{"not":{"required":["a","b"]}},{"maximum":2}]}"#,
                   accept: [#"{"a":1,"b":2}"#, "1", #""s""#], reject: [#"{"a":1}"#, "{}", "3"]),
        SchemaCase(schema: #"{"if":{"maximum":2},"then":{"required":["a","b"]},"else":{"not":{"required":["a","b"]}}}"#,
                   accept: [#"{"a":1,"b":2}"#, "1", #""x""#], reject: [#"{"a":1}"#, "{}", "5"]),
        SchemaCase(schema: #"{"if":{"maxProperties":1},"then":{"required":["a","b"]},"else":{"not":{"required":["a","b"]}}}"#,
                   accept: ["1"], reject: ["{}", #"{"a":1}"#, #"{"a":1,"b":2}"#]),
        SchemaCase(schema: #"{"oneOf":[{"const":"a"},{"dependentSchemas":{"a":{"required":["b"]}}}]}"#,
                   accept: ["{}"], reject: [#""a""#, #"{"a":1}"#]),
        SchemaCase(schema: #"{"allOf":[{"dependentSchemas":{"a":{"required":["b"]}}},{"not":{"patternProperties":{"^a":{"type":"integer"}}}}]}"#,
                   accept: [], reject: []),  // now refused: the negated patternProperties has no exact form
    ]

    @Test(arguments: fixedCases)
    func distributionKeepsTheWholeConjunction(_ c: SchemaCase) throws {
        // A refusal is sound too; an empty accept list marks a schema the compiler refuses.
        guard !c.accept.isEmpty else {
            #expect(JSONSchemaTestSupport.error(c.schema, JSONSchemaCompileOptions(whitespace: .compact)) != nil)
            return
        }
        try JSONSchemaTestSupport.expectExactly(c, options: JSONSchemaCompileOptions(whitespace: .compact))
    }
}
