import Testing
import GuidedGrammar
import GuidedTokenizers
@testable import GuidedMask

/// A member-set object reads its own bytes (a name's opening quote, the `}`, and through its caller the
/// `{`) before the calls that follow them, so the whitespace runs ahead of those bytes are states without
/// calls: one stack whose top state only reads bytes. With the calls first, every state of such a run
/// held the call edges, and a first visit of a key position or of a value's end walked each whitespace
/// token with the general step over several stacks.
@Suite struct ObjectBytesBeforeCallsTests {
    /// An open object (undeclared members allowed) with a required member and an array of objects,
    /// in member sets, with the default (bounded) whitespace.
    static let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"list":{"type":"array","items":{"type":"object","properties":{"b":{"type":"string"}}}}},"required":["a"]}"#
    static let tokens = ["{", "}", "[", "]", "\"", ":", ",", " ", "a", "b", "1"]

    static func compiled() throws -> CompiledGrammar {
        let options = JSONSchemaCompileOptions(propertyOrder: .memberSets)
        return try MaskTestSupport.compiled(try JSONSchemaCompiler.compile(text: schema, options: options),
                                            MaskTestSupport.vocabulary(tokens))
    }

    /// The stacks of the configuration after `text`, and the flags of their top states.
    static func tops(_ c: CompiledGrammar, after text: String) throws -> [UInt8] {
        var m = GrammarMatcher(c)
        try m.accept(bytes: Array(text.utf8))
        let cp = m.current
        return (Int(cp.setStart)..<Int(cp.setEnd)).map { c.tables.stateFlags(m.engine.nodes[Int(m.sets[$0])].state) }
    }

    @Test(arguments: [
        "{ ",                              // before the first key or the `}`
        "{  ",
        #"{"a": 1 "#,                      // after a value: before `,` or `}`
        #"{"a": 1,  "#,                    // before a key (declared or undeclared)
        #"{"a": 1, "list": [ "#,           // before an array's first item, an object
        #"{"a": 1, "list": [{}, "#,        // before a later item
        #"{"a": 1, "list": [{"b": "x"} "#, // after an item's `}`
    ])
    func whitespaceRunsAreOneStackWithoutCalls(_ text: String) throws {
        let c = try Self.compiled()
        #expect(try Self.tops(c, after: text) == [GrammarAutomaton.hasBytes], "after \(text)")
    }

    /// The calls come right after the object's bytes: after a name's opening quote the undeclared member
    /// is a stack of its own beside the declared names, and a `}` before the required member leads
    /// nowhere while one after it is read.
    @Test func callsFollowTheBytes() throws {
        let c = try Self.compiled()
        #expect(try Self.tops(c, after: #"{ ""#).count == 2)
        #expect(!MaskTestSupport.accepts(c, "{ }"))
        #expect(MaskTestSupport.accepts(c, #"{"a": 1 }"#))
        #expect(MaskTestSupport.accepts(c, #"{"a": 1, "z": {"y": [1]}, "list": [{}, {"b": "x"}] }"#))
        #expect(!MaskTestSupport.accepts(c, #"{"a": 1, "a": 1}"#))
        #expect(!MaskTestSupport.accepts(c, #"{"a": 1, "list": [{"b": 1}]}"#))
    }
}
