import Testing
@testable import GuidedGrammar

/// What the lowering shares instead of spelling twice: definitions referred to from several places,
/// object members reached from several states; and the automaton helpers that long string
/// intersections lean on.
@Suite struct LoweringSharingTests {
    static let referredThrice = ##"""
    {"$defs":{"ref":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}},
     "type":"object",
     "properties":{"a":{"$ref":"#/$defs/ref"},"b":{"description":"only an annotation","$ref":"#/$defs/ref"},
                   "c":{"type":"array","items":{"$ref":"#/$defs/ref"}}}}
    """##

    @Test func definitionReferredFromSeveralPlacesIsLoweredOnce() throws {
        let g = try JSONSchemaTestSupport.compile(Self.referredThrice)
        #expect(g.rules.filter { $0.name == "schema:/$defs/ref" }.count == 1)
        // Lowered once per site, its object states came three times under the same names.
        let objectStates = g.rules.map(\.name).filter { $0.hasPrefix("object:/$defs/ref#") }
        #expect(!objectStates.isEmpty)
        #expect(Set(objectStates).count == objectStates.count)
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: Self.referredThrice,
            accept: [#"{"a":{"name":"x"},"b":{"name":"y"},"c":[{"name":"z"}]}"#, #"{"c":[]}"#, "{}"],
            reject: [#"{"a":{}}"#, #"{"b":{"name":1}}"#, #"{"c":[{"nom":"z"}]}"#]))
    }

    /// Dropping unreachable rules keeps the mask compiler's `shared` hint of the rules it keeps (it was
    /// lost, so a pruned schema's undeclared-member rules were inlined into every key position).
    @Test func pruningKeepsTheSharedHint() throws {
        var g = Grammar()
        let unused = g.addRule(name: "unused", body: .literal("u"))
        let member = g.addRule(name: "member", body: .literal("m"), shared: true)
        g.define(g.start, as: .seq([.rule(member), .rule(member)]))
        let pruned = g.prunedToReachable()
        #expect(pruned.rules.map(\.name) == ["root", "member"])
        #expect(pruned.rules.map(\.shared) == [false, true])
        #expect(g.rules[unused.index].name == "unused")
    }

    @Test func referenceWithAssertingSiblingIsNotShortCut() throws {
        // 2020-12: a `$ref` beside `maxLength` is a conjunction, not a bare reference.
        let schema = ##"{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s","maxLength":2},"b":{"$ref":"#/$defs/s"}}}"##
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema, accept: [#"{"a":"ab","b":"abc"}"#], reject: [#"{"a":"abc"}"#, #"{"b":1}"#]))
        // Draft 7: siblings of `$ref` are ignored, so the same schema leaves `a` unbounded.
        let draft7 = ##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","maxLength":2}}}"##
        try JSONSchemaTestSupport.expectExactly(SchemaCase(schema: draft7, accept: [#"{"a":"abc"}"#], reject: [#"{"a":1}"#]))
    }

    @Test func bareReferenceCycleIsStillRefused() {
        let e = JSONSchemaTestSupport.error(##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##)
        #expect(e?.keyword == "$ref")
        #expect(e?.description.hasSuffix("reference cycle that never reaches a keyword") == true)
    }

    @Test func eachDeclaredMemberIsSpelledOnce() throws {
        // Three optional members: states "nothing written yet" and "something written" both go on
        // through one rule per member.
        let schema = #"{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"},"z":{"type":"integer"}},"additionalProperties":false}"#
        let g = try JSONSchemaTestSupport.compile(schema)
        #expect(g.rules.filter { $0.name.hasPrefix("member:") }.count == 3)
        try JSONSchemaTestSupport.expectExactly(SchemaCase(
            schema: schema,
            accept: ["{}", #"{"x":1}"#, #"{"y":2}"#, #"{"x":1,"z":3}"#, #"{"x":1,"y":2,"z":3}"#],
            reject: [#"{"y":2,"x":1}"#, #"{"x":1,}"#, #"{,"x":1}"#, #"{"x":1"y":2}"#, #"{"w":1}"#]))
    }

    /// Keys holding large expressions (member-set shapes, member calls, undeclared members) hash the
    /// first 64 nodes only; `==` still tells apart keys that differ further in.
    @Test func expressionKeysHashTheirFirstNodes() {
        func chain(last: UInt8) -> GrammarExpr { .sequence((0..<200).map { .bytes([UInt8($0 % 100), $0 == 199 ? last : 0]) }) }
        let a = chain(last: 1), b = chain(last: 2)
        func hash(_ e: GrammarExpr) -> Int { var h = Hasher(); e.hashPrefix(into: &h); return h.finalize() }
        #expect(hash(a) == hash(b))
        #expect(hash(a) == hash(chain(last: 1)))
        #expect(hash(.sequence([.bytes([9])] + Array(repeating: .empty, count: 100))) != hash(.sequence([.bytes([8])] + Array(repeating: .empty, count: 100))))
        let keys: Set<PrefixHashedExpr> = [PrefixHashedExpr(a), PrefixHashedExpr(b), PrefixHashedExpr(chain(last: 1))]
        #expect(keys.count == 2)
        let shape = { (value: GrammarExpr) in MemberSetShape(members: [.init(name: "m", value: value, required: true)], undeclared: .nothing) }
        let rules: [MemberSetShape: Int] = [shape(a): 1, shape(b): 2]
        #expect(rules[shape(chain(last: 2))] == 2)
        #expect(rules[shape(chain(last: 3))] == nil)
    }

    @Test func byteSetMembersAndLowest() {
        let s = ByteSet([0, 63, 64, 127, 128, 200, 255])
        #expect(s.members == [0, 63, 64, 127, 128, 200, 255])
        #expect(s.lowest == 0)
        #expect(ByteSet([201, 77]).lowest == 77)
        #expect(ByteSet().lowest == nil)
        #expect(ByteSet().members == [])
        #expect(ByteSet.all.members.count == 256)
    }

    @Test func minimizingKeepsStatesThatDifferOnlyByAMissingEdge() throws {
        // "ab" or "b": after "a" only "b" may follow, at the start "a" or "b". Both states have a b-edge
        // to the accepting state and differ only in the missing a-edge (the implicit sink), so they
        // must stay apart: 3 states.
        let d = try ByteDFA(RegexLowering.compile("ab|b", dialect: .grammar)).minimized()
        #expect(d.stateCount == 3)
        for s in ["ab", "b"] { #expect(d.matches(s)) }
        for s in ["", "a", "aab", "abb", "ba"] { #expect(!d.matches(s)) }
        // Equivalent states merge: (a|b)c and [ab]c are the same automaton.
        #expect(try ByteDFA(RegexLowering.compile("(a|b)c", dialect: .grammar)).minimized().stateCount == 3)
    }
}
