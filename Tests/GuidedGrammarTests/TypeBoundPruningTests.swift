import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Branches of `anyOf`/`oneOf` whose types cannot meet the rest of the conjunction, and combinations of
/// branches whose types cannot meet each other, are dropped before the conjunction is distributed
/// (`SchemaLowering+TypeBounds`): the language is the same, and no rule is lowered for them.
@Suite struct TypeBoundPruningTests {
    /// `v` must satisfy two `oneOf`s, each of a string, an array and a number: of their nine
    /// combinations only string-string, array-array and number-number admit an instance.
    static let twoGroups = ##"""
    {"type":"object","properties":{"v":{"allOf":[
       {"oneOf":[{"type":"string","minLength":2},{"type":"array","maxItems":1},{"type":"integer","minimum":5}]},
       {"oneOf":[{"type":"string","maxLength":3},{"type":"array","minItems":1},{"type":"integer","maximum":7}]}]}},
     "required":["v"],"additionalProperties":false}
    """##

    @Test func onlyCombinationsWhoseTypesMeetAreLowered() throws {
        let g = try JSONSchemaTestSupport.compile(Self.twoGroups)
        // The conjunction's own rule, and one per kept combination (each keyed first by `v`'s location).
        #expect(g.rules.filter { $0.name == "schema:/properties/v" }.count == 1 + 3)
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: Self.twoGroups,
            accept: [#"{"v":"ab"}"#, #"{"v":"abc"}"#, #"{"v":[1]}"#, #"{"v":5}"#, #"{"v":7}"#],
            reject: [#"{"v":"a"}"#, #"{"v":"abcd"}"#, #"{"v":[]}"#, #"{"v":[1,2]}"#, #"{"v":4}"#, #"{"v":8}"#,
                     #"{"v":null}"#, #"{"v":{}}"#, #"{"v":5.5}"#]))
    }

    /// A branch that cannot meet the conjunction's own `type` is dropped before the groups are counted
    /// against `maxAlternatives`: 3 x 3 combinations would pass a limit of 4, the 2 x 2 that can hold
    /// do not.
    @Test func branchesOutsideTheConjunctionsTypesDoNotCountAgainstTheLimit() throws {
        let schema = ##"""
        {"type":"string","allOf":[
           {"anyOf":[{"minLength":2},{"type":"integer"},{"pattern":"^a"}]},
           {"anyOf":[{"maxLength":3},{"type":"array"},{"pattern":"b$"}]}]}
        """##
        var options = JSONSchemaCompileOptions()
        options.limits.maxAlternatives = 4
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema, accept: [#""ab""#, #""a""#, #""abcb""#, #""xyz""#, #""axxxb""#],
            reject: [#""""#, #""b""#, #""xyzw""#, #""axxxx""#, #""x""#, "1", "[]"]), options: options)
        options.limits.maxAlternatives = 3
        let e = JSONSchemaTestSupport.error(schema, options)
        #expect(e?.keyword == "anyOf")
        #expect(e?.description.hasSuffix("more than 3 combined alternatives") == true)
    }

    /// A `oneOf` branch that no instance of the conjunction satisfies is false for all of them: exactly
    /// one of the others must hold, as before.
    @Test func oneOfKeepsItsMeaningWithoutTheDroppedBranches() throws {
        let schema = ##"""
        {"type":"object","oneOf":[{"required":["a"]},{"type":"number"},{"maxProperties":1},{"type":"string"}]}
        """##
        let g = try JSONSchemaTestSupport.compile(schema)
        // The root's rule and one per object branch (the number and string branches are never lowered).
        #expect(g.rules.filter { $0.name == "schema" }.count == 1 + 2)
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema, accept: ["{}", #"{"b":1}"#, #"{"a":1,"b":2}"#],
            reject: [#"{"a":1}"#, #"{"b":1,"c":2}"#, "1", #""s""#, "null"]))
    }

    /// Branch 0 beside the negation of branch 1 (`not required [a, b]`: a or b absent): the combination
    /// that requires `a` and forbids it admits no object, and objects are all the conjunction admits.
    @Test func combinationsWhoseFactsContradictAreNotLowered() throws {
        let schema = ##"{"type":"object","oneOf":[{"required":["a"]},{"required":["a","b"]}]}"##
        let g = try JSONSchemaTestSupport.compile(schema)
        #expect(g.rules.filter { $0.name == "schema" }.count == 3)
        let accept = [#"{"a":1}"#, #"{"a":1,"c":2}"#]
        let reject = ["{}", #"{"a":1,"b":2}"#, #"{"b":1}"#, #"{"b":1,"a":2}"#, "1"]
        try JSONSchemaTestSupport.expectExactly(SchemaCase(schema: schema, accept: accept, reject: reject))
        // In member sets `a` may also come after an undeclared member.
        try JSONSchemaTestSupport.expectExactly(SchemaCase(schema: schema, accept: accept + [#"{"c":2,"a":1}"#], reject: reject),
                                                options: JSONSchemaCompileOptions(propertyOrder: .memberSets))
    }

    /// `n` `if`/`then` pairs over one discriminator, each `then` a definition that names `kind` (not
    /// required) and closes the object, as SchemaStore's multi-kind files write them.
    static func discriminatorChain(_ n: Int) -> String {
        let kinds = (0..<n).map { "K\($0)" }
        let pairs = kinds.map { ##"{"if":{"properties":{"kind":{"const":"\##($0)"}}},"then":{"$ref":"#/$defs/\##($0)"}}"## }
        let defs = kinds.map { k in
            #""\#(k)":{"type":"object","properties":{"kind":{"const":"\#(k)"},"v\#(k)":{"type":"integer"}},"additionalProperties":false}"#
        }
        return #"{"type":"object","allOf":[\#(pairs.joined(separator: ","))],"$defs":{\#(defs.joined(separator: ","))}}"#
    }

    /// Of the 16 combinations of four pairs, six admit an object: every `if` (no `kind`: only `{}`
    /// satisfies all four definitions), exactly one (`kind` equals it), none (`kind` is another string).
    /// The other ten require `kind` (a negated `if`) while two `if`s bound its value to two constants, or
    /// one `if` to the constant another `if`'s negation excludes: the required member has no value.
    @Test func aDiscriminatorChainLowersOnlyTheCombinationsThatAdmitAnObject() throws {
        let schema = Self.discriminatorChain(4)
        let g = try JSONSchemaTestSupport.compile(schema)
        // The root, the combination of every `if`, and five combinations with a negated `if` (each with
        // the rule of that negation's one-alternative group inside it): ten more combinations gave 32.
        #expect(g.rules.filter { $0.name == "schema" }.count == 1 + 1 + 5 * 2)
        let accept = ["{}", #"{"kind":"K0"}"#, #"{"kind":"K2","vK2":3}"#, #"{"kind":"other"}"#, #"{"kind":"other","x":[1]}"#]
        let reject = [#"{"vK0":1}"#, #"{"kind":"K1","vK0":1}"#, #"{"kind":"K3","vK3":"x"}"#, #"{"kind":"K0","x":1}"#, "[]"]
        try JSONSchemaTestSupport.expectExactly(SchemaCase(schema: schema, accept: accept, reject: reject))
        try JSONSchemaTestSupport.expectExactly(SchemaCase(schema: schema, accept: accept + [#"{"vK2":3,"kind":"K2"}"#], reject: reject),
                                                options: JSONSchemaCompileOptions(propertyOrder: .memberSets))
    }

    /// The search stops at the first choice of outer groups that admits nothing: eight pairs (256
    /// combinations, 10 admissible). A partial choice is bounded by meeting its alternatives' facts
    /// (`SchemaFacts.meeting`), each alternative analysed once: 146 analyses merging 1,134 conjuncts in
    /// all, where analysing each partial choice whole took 302 merging 3,930 (9e5420c), and checking only
    /// complete combinations took 825.
    @Test func aDiscriminatorChainIsSearchedWithoutVisitingEveryCombination() throws {
        let schema = Self.discriminatorChain(8)
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        let g = try lowering.lowerRoot()
        #expect(g.rules.filter { $0.name == "schema" }.count == 1 + 1 + 9 * 2)
        #expect(lowering.analyses.count < 200)
        #expect(lowering.analyzedConjuncts < 1_500)
    }

    /// Past the alternatives limit, only the combinations that admit an object count: ten pairs make
    /// 1,024 combinations (the limit is 512) of which 12 admit one, and compile; ten `if`s on ten
    /// different members make 1,024 that all admit one, and are refused naming the tenth `if`, whose
    /// group took the product past the limit.
    @Test func pastTheLimitOnlyAdmissibleCombinationsCount() throws {
        let chain = Self.discriminatorChain(10)
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: chain, accept: ["{}", #"{"kind":"K9","vK9":1}"#, #"{"kind":"x"}"#],
            reject: [#"{"kind":"K9","vK8":1}"#, #"{"vK0":1}"#, #"{"kind":"K4","vK4":"1"}"#]))
        let independent = (0..<10).map { ##"{"if":{"properties":{"m\##($0)":{"const":1}}},"then":{"required":["n\##($0)"]}}"## }
        let schema = #"{"type":"object","allOf":[\#(independent.joined(separator: ","))]}"#
        #expect(JSONSchemaTestSupport.error(schema)?.description == "schema too complex at keyword 'if' at /allOf/9: more than 512 combined alternatives")
        // Forty pairs admit 42 combinations, but finding them merges more conjuncts than the search may
        // (about 40 x 40 analyses of up to 40 conjuncts): refused, as before the search.
        #expect(JSONSchemaTestSupport.error(Self.discriminatorChain(40))?.description == "schema too complex at keyword 'if' at /allOf/9: more than 512 combined alternatives")
        // Five pairs: 7 of 32 combinations admit an object, within a limit of 24 (whose search may merge
        // 32 x 24 conjuncts) and past one of 5 (the third `if` takes the product to 8).
        var options = JSONSchemaCompileOptions()
        options.limits.maxAlternatives = 24
        #expect(JSONSchemaTestSupport.error(Self.discriminatorChain(5), options) == nil)
        options.limits.maxAlternatives = 5
        #expect(JSONSchemaTestSupport.error(Self.discriminatorChain(5), options)?.description == "schema too complex at keyword 'if' at /allOf/2: more than 5 combined alternatives")
    }

    /// Six `if`s on six different members: 64 combinations, each under the alternatives limit and each
    /// admitting an object, whose analyses merge about 2,500 conjuncts in all. Within the default
    /// `maxAnalyzedConjuncts` they compile; with a bound of 500 the compile stops, naming the group it
    /// was lowering.
    @Test func analysesPastTheirBoundAreRefused() throws {
        let independent = (0..<6).map { ##"{"if":{"properties":{"m\##($0)":{"const":1}}},"then":{"required":["n\##($0)"]}}"## }
        let schema = #"{"type":"object","allOf":[\#(independent.joined(separator: ","))]}"#
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        _ = try lowering.lowerRoot()
        #expect((2_200...2_800).contains(lowering.analyzedConjuncts), "\(lowering.analyzedConjuncts)")
        var options = JSONSchemaCompileOptions()
        options.limits.maxAnalyzedConjuncts = 500
        #expect(JSONSchemaTestSupport.error(schema, options)?.description == "schema too complex at keyword 'if' at /allOf/0: the schema's combined alternatives take more than 500 analysed conjuncts")
    }

    @Test func satisfiableTypesDropTypesWhoseKeywordsContradict() {
        var f = SchemaFacts()
        #expect(f.satisfiableTypes == .all)
        f.required = ["a", "b"]
        f.maxProperties = 1
        #expect(f.satisfiableTypes == InstanceTypes.all.subtracting(.object))
        f.maxProperties = 2
        f.forbiddenKeys = ["b"]
        #expect(f.satisfiableTypes == InstanceTypes.all.subtracting(.object))
        f = SchemaFacts()
        f.minLength = 3
        f.maxLength = 2
        f.minItems = 1
        f.maxItems = 0
        #expect(f.satisfiableTypes == InstanceTypes.all.subtracting([.string, .array]))
        f = SchemaFacts()
        f.lower = NumberBound(value: JSONNumber(2), exclusive: false)
        f.upper = NumberBound(value: JSONNumber(2), exclusive: true)
        #expect(f.satisfiableTypes == InstanceTypes.all.subtracting([.integer, .fraction]))
        f.upper = NumberBound(value: JSONNumber(2), exclusive: false)
        #expect(f.satisfiableTypes == .all)
        f = SchemaFacts()
        f.enumValues = [.string("x"), .number(JSONNumber(1))]
        #expect(f.satisfiableTypes == [.string, .integer])
        // A listed value a `not` excludes admits nothing: `const: null` beside `not: {const: null}`.
        f.excluded = [.number(JSONNumber(1))]
        #expect(f.satisfiableTypes == [.string])
        f.excluded.append(.string("x"))
        #expect(f.satisfiableTypes == [])
        f.excluded = []
        f.unsatisfiable = true
        #expect(f.satisfiableTypes == [])
    }

    /// The combination search meets the facts of a choice's parts instead of analysing their conjunction:
    /// both give the same facts.
    @Test func meetingFactsAgreesWithAnalysingTheConjunction() throws {
        let schema = ##"""
        {"$defs":{
           "a":{"type":["string","integer","object"],"minLength":2,"minimum":1,"required":["x"],"enum":["ab","abc",3,{"x":1}]},
           "b":{"type":["string","object","null"],"maxLength":2,"maximum":5,"required":["y"],"not":{"const":"ab"},
                "properties":{"x":{"type":"integer"}}}}}
        """##
        var lowering = SchemaLowering(document: try SchemaDocument(root: try JSONParser.parse(schema), defaultDraft: .draft2020_12),
                                      options: JSONSchemaCompileOptions())
        let a = Conjunct(node: try lowering.document.node(at: "/$defs/a"), full: true)
        let b = Conjunct(node: try lowering.document.node(at: "/$defs/b"), full: true)
        let met = try lowering.analyze([a]).1.meeting(try lowering.analyze([b]).1)
        let both = try lowering.analyze(SchemaLowering.normalize([a, b])).1
        #expect(met.types == [.string, .object] && both.types == met.types)
        #expect(met.enumValues == both.enumValues && met.excluded == both.excluded && met.excluded == [.string("ab")])
        #expect(met.minLength == 2 && met.maxLength == 2 && both.minLength == 2 && both.maxLength == 2)
        #expect(String(describing: met.lower) + String(describing: met.upper) == String(describing: both.lower) + String(describing: both.upper))
        #expect(Set(met.required) == ["x", "y"] && Set(both.required) == ["x", "y"])
        #expect(met.objectParts.count == both.objectParts.count)
        // "ab" is excluded and 3 is no string or object: strings ("abc") and objects may remain.
        #expect(met.satisfiableTypes == [.string, .object] && both.satisfiableTypes == met.satisfiableTypes)
    }

    /// Every branch outside the conjunction's types: nothing is accepted.
    @Test func aGroupWithNoBranchLeftAdmitsNothing() throws {
        let schema = ##"{"type":"object","properties":{"v":{"type":"string","anyOf":[{"type":"integer"},{"type":"null"}]}}}"##
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema, accept: ["{}"], reject: [#"{"v":"a"}"#, #"{"v":1}"#, #"{"v":null}"#]))
    }
}
