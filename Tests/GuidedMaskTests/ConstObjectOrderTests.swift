import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// `const` and `enum` objects under member sets: two objects are equal whatever the order of their
/// members, so every order of the listed value's members is accepted, and nothing else. Before, only
/// the order written in the schema was (maskbench-dev's valid instances, their members shuffled,
/// found it: `enum: [{"bar": 2, "foo": 1}]` rejected `{"foo": 1, "bar": 2}`).
@Suite struct ConstObjectOrderTests {
    static let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)

    static func compiled(_ schema: String, order: JSONSchemaCompileOptions.PropertyOrder = .memberSets) throws -> CompiledGrammar {
        var options = Self.options
        options.propertyOrder = order
        return try S.compiled(try JSONSchemaCompiler.compile(text: schema, options: options), S.vocabulary(["{", "}"]))
    }

    /// Every key sequence over {a, b, c, x} up to length 4 (each key with the const's value, x with 0):
    /// accepted exactly when it is an order of a, b and c.
    @Test func everyOrderOfTheMembersAndNothingElse() throws {
        let c = try Self.compiled(#"{"const":{"a":1,"b":"two","c":[true,null]}}"#)
        let values = ["a": "1", "b": #""two""#, "c": "[true,null]", "x": "0"]
        var checked = 0, accepted = 0
        for s in S.keySequences(["a", "b", "c", "x"], upTo: 4) {
            let valid = s.count == 3 && Set(s) == ["a", "b", "c"]
            let text = "{" + s.map { "\"\($0)\":" + values[$0]! }.joined(separator: ",") + "}"
            #expect(S.accepts(c, text) == valid, "\(text) should be \(valid ? "accepted" : "rejected")")
            checked += 1
            if valid { accepted += 1 }
        }
        #expect(checked == 341)
        #expect(accepted == 6)
        #expect(!S.accepts(c, #"{"a":2,"b":"two","c":[true,null]}"#))
        #expect(!S.accepts(c, #"{"a":1,"b":"two","c":[null,true]}"#))
    }

    /// Objects nested in an `enum` value, and several `enum` objects: each is its own member set.
    @Test func nestedAndListedObjects() throws {
        let c = try Self.compiled(#"{"enum":[{"p":{"x":1,"y":2},"q":3},{"r":{"s":[{"t":1,"u":2}]}},{"p":1}]}"#)
        for text in [#"{"p":{"x":1,"y":2},"q":3}"#, #"{"q":3,"p":{"y":2,"x":1}}"#, #"{"p":{"y":2,"x":1},"q":3}"#,
                     #"{"r":{"s":[{"u":2,"t":1}]}}"#, #"{"p":1}"#] {
            #expect(S.accepts(c, text), "\(text)")
        }
        for text in [#"{"q":3}"#, #"{"p":{"x":1},"q":3}"#, #"{"p":{"x":1,"y":2,"x":1},"q":3}"#, #"{"p":1,"q":3}"#,
                     #"{"r":{"s":[{"t":1,"u":2},{"t":1,"u":2}]}}"#, #"{"p":{"x":1,"y":2},"q":3,"p":1}"#] {
            #expect(!S.accepts(c, text), "\(text)")
        }
    }

    /// Several listed objects are joined into one member-set rule (`joiningMemberSets`), as a
    /// disjunction's objects are: one key position, one stack at their `{`.
    @Test func listedObjectsAreOneMemberSet() throws {
        let schema = #"{"enum":[{"a":1,"b":2},{"a":2,"c":3},{"b":1,"c":1}]}"#
        let g = try JSONSchemaCompiler.compile(text: schema, options: Self.options)
        #expect(g.rules.filter(\.tracksMembers).map(\.name) == ["object:union"])
        let c = try Self.compiled(schema)
        for text in [#"{"b":2,"a":1}"#, #"{"c":3,"a":2}"#, #"{"c":1,"b":1}"#, #"{"a":1,"b":2}"#] { #expect(S.accepts(c, text), "\(text)") }
        for text in [#"{"a":1,"c":3}"#, #"{"b":2,"a":2}"#, #"{"a":1}"#, #"{"c":1,"b":1,"a":1}"#] { #expect(!S.accepts(c, text), "\(text)") }
    }

    /// Declared order keeps the value's own order (a departure, docs/json-schema.md).
    @Test func declaredOrderKeepsTheWrittenOrder() throws {
        let c = try Self.compiled(#"{"const":{"a":1,"b":2}}"#, order: .declared)
        #expect(S.accepts(c, #"{"a":1,"b":2}"#))
        #expect(!S.accepts(c, #"{"b":2,"a":1}"#))
    }
}
