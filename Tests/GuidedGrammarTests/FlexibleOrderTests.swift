import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar
import GuidedTestSupport

/// `PropertyOrder.flexible`: declared order, or the required members first in the order `required`
/// lists them and the others after in declared order; undeclared members last in both; no key twice.
@Suite struct FlexibleOrderTests {
    static let flexible = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .flexible)

    static func flexibleCase(_ schema: String, accept: [String], reject: [String]) -> SchemaCase {
        SchemaCase(schema: schema, accept: accept, reject: reject, options: flexible)
    }

    static let cases: [SchemaCase] = [
        // Properties sorted by a serializer, `required` in the author's order: both orders, nothing else.
        flexibleCase(#"{"type":"object","properties":{"dimensions":{"type":"integer"},"shape":{"type":"string"}},"required":["shape","dimensions"],"additionalProperties":false}"#,
                     accept: [#"{"dimensions":1,"shape":"s"}"#, #"{"shape":"s","dimensions":1}"#],
                     reject: [#"{"shape":"s"}"#, #"{"shape":"s","shape":"t","dimensions":1}"#, #"{"shape":"s","dimensions":1,"shape":"t"}"#,
                              #"{"dimensions":1,"shape":"s","dimensions":2}"#, #"{"shape":1,"dimensions":1}"#, "{}"]),
        // Optional members come after the required ones in the second order, in declared order.
        flexibleCase(#"{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{}},"required":["d","b"],"additionalProperties":false}"#,
                     accept: [#"{"b":1,"d":2}"#, #"{"d":1,"b":2}"#, #"{"a":1,"b":2,"c":3,"d":4}"#, #"{"d":1,"b":2,"a":3,"c":4}"#,
                              #"{"d":1,"b":2,"c":3}"#, #"{"b":1,"c":2,"d":3}"#],
                     reject: [#"{"d":1,"a":2,"b":3}"#, #"{"d":1,"b":2,"c":3,"a":4}"#, #"{"b":1,"d":2,"a":3}"#, #"{"d":1,"b":2,"d":3}"#,
                              #"{"a":1,"d":2,"b":3}"#, #"{"d":1}"#]),
        // Undeclared members last, after either order.
        flexibleCase(#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["b","a"],"additionalProperties":{"type":"boolean"}}"#,
                     accept: [#"{"a":1,"b":2,"x":true}"#, #"{"b":2,"a":1,"x":true,"y":false}"#],
                     reject: [#"{"x":true,"a":1,"b":2}"#, #"{"b":2,"x":true,"a":1}"#, #"{"b":2,"a":1,"x":1}"#, #"{"b":2,"a":1,"a":3}"#]),
        // dependentRequired, minProperties and maxProperties hold in the second order too.
        flexibleCase(#"{"type":"object","properties":{"a":{},"b":{},"c":{}},"required":["c","a"],"dependentRequired":{"b":["a"]},"maxProperties":2,"additionalProperties":false}"#,
                     accept: [#"{"a":1,"c":2}"#, #"{"c":1,"a":2}"#],
                     reject: [#"{"c":1,"a":2,"b":3}"#, #"{"a":1,"b":2,"c":3}"#, #"{"c":1}"#]),
        flexibleCase(#"{"type":"object","properties":{"a":{},"b":{},"c":{}},"required":["c"],"dependentRequired":{"a":["b"]},"additionalProperties":false}"#,
                     accept: [#"{"c":1}"#, #"{"c":1,"a":2,"b":3}"#, #"{"a":1,"b":2,"c":3}"#, #"{"c":1,"b":2}"#],
                     reject: [#"{"c":1,"a":2}"#, #"{"a":1,"c":2}"#, #"{"c":1,"b":2,"a":3}"#]),
        // Undeclared members count toward minProperties (one at most) and maxProperties in both orders.
        flexibleCase(#"{"type":"object","properties":{"a":{},"b":{}},"required":["b"],"minProperties":2,"maxProperties":2,"additionalProperties":{"type":"boolean"}}"#,
                     accept: [#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#, #"{"b":2,"x":true}"#],
                     reject: [#"{"b":2}"#, #"{"x":true,"b":2}"#, #"{"a":1,"b":2,"x":true}"#, #"{"b":2,"a":1,"x":true}"#,
                              #"{"b":2,"x":true,"y":false}"#, #"{"a":1,"x":true}"#]),
        // A forbidden member stays forbidden in both orders.
        flexibleCase(#"{"type":"object","properties":{"a":{},"b":false,"c":{}},"required":["c"]}"#,
                     accept: [#"{"c":1,"a":2}"#, #"{"a":1,"c":2}"#], reject: [#"{"c":1,"b":2}"#, #"{"b":1,"c":2}"#]),
        // Nested objects each get their own pair of orders.
        flexibleCase(#"{"type":"object","properties":{"p":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"required":["y","x"],"additionalProperties":false},"q":{"type":"boolean"}},"required":["q","p"],"additionalProperties":false}"#,
                     accept: [#"{"q":true,"p":{"y":1,"x":2}}"#, #"{"p":{"x":1,"y":2},"q":false}"#],
                     reject: [#"{"q":true,"p":{"y":1}}"#, #"{"q":true,"p":{"y":1,"x":2,"y":3}}"#, #"{"p":{"x":1,"y":2}}"#]),
    ]

    @Test(arguments: cases)
    func acceptsExactly(_ c: SchemaCase) throws {
        try JSONSchemaTestSupport.expectExactly(c)
    }

    /// Every key sequence over {a, b, c, x} up to length 5 with x at most once (911 objects): accepted
    /// exactly when no key repeats, a and c are present, the declared keys follow [a, b, c] or [c, a, b]
    /// (`required` is [c, a]), and the undeclared x, if any, comes last.
    @Test func exhaustiveKeySequences() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}},"required":["c","a"],"additionalProperties":{"type":"boolean"}}"#
        let g = try JSONSchemaTestSupport.compile(schema, Self.flexible)
        let recognizer = try ReferenceRecognizer(g)
        let keys = ["a", "b", "c", "x"]
        let sequences = JSONSchemaTestSupport.keySequences(keys, upTo: 5)
        func isSubsequence(_ s: [String], of order: [String]) -> Bool {
            var i = 0
            for k in s { while i < order.count && order[i] != k { i += 1 }; if i == order.count { return false }; i += 1 }
            return true
        }
        var checked = 0
        for s in sequences where s.filter({ $0 == "x" }).count <= 1 {
            let declared = s.filter { $0 != "x" }
            let valid = Set(s).count == s.count && s.contains("a") && s.contains("c")
                && (isSubsequence(declared, of: ["a", "b", "c"]) || isSubsequence(declared, of: ["c", "a", "b"]))
                && (!s.contains("x") || s.last == "x")
            let text = "{" + s.map { "\"\($0)\":" + ($0 == "x" ? "true" : "1") }.joined(separator: ",") + "}"
            #expect(recognizer.accepts(text) == valid, "\(text) should be \(valid ? "accepted" : "rejected")")
            checked += 1
        }
        #expect(checked == 911)
    }

    /// Objects with more than `flexibleMaxMembers` candidate members keep declared order only.
    @Test func largeObjectsKeepDeclaredOrder() throws {
        let names = (0..<17).map { String(format: "m%02d", $0) }
        let properties = names.map { "\"\($0)\":{}" }.joined(separator: ",")
        let schema = #"{"type":"object","properties":{"# + properties + #"},"required":["m16","m00"],"additionalProperties":false}"#
        let g = try JSONSchemaTestSupport.compile(schema, Self.flexible)
        #expect(JSONSchemaTestSupport.accepts(g, #"{"m00":1,"m16":2}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"m16":1,"m00":2}"#))
        let small = #"{"type":"object","properties":{"# + names.dropLast().map { "\"\($0)\":{}" }.joined(separator: ",")
            + #"},"required":["m15","m00"],"additionalProperties":false}"#
        let h = try JSONSchemaTestSupport.compile(small, Self.flexible)
        #expect(JSONSchemaTestSupport.accepts(h, #"{"m15":1,"m00":2}"#))
        #expect(JSONSchemaTestSupport.accepts(h, #"{"m00":1,"m15":2}"#))
    }

    /// Over the JSON Schema Test Suite, no invalid instance (nor its members reversed) is accepted.
    @Test(.enabled(if: SharedData.present(for: "FlexibleOrderTests (Test Suite)")), arguments: JSONSchemaSuiteSweepTests.drafts)
    func noInvalidInstanceAccepted(_ draftName: String) throws {
        try AnyOrderObjectTests.sweep(draftName, order: .flexible, label: "flexible-order")
    }

    /// Declared order is still the default.
    @Test func declaredOrderStaysTheDefault() throws {
        let schema = #"{"type":"object","properties":{"a":{},"b":{}},"required":["b","a"]}"#
        let declared = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact))
        #expect(!JSONSchemaTestSupport.accepts(declared, #"{"b":1,"a":2}"#))
        #expect(JSONSchemaTestSupport.accepts(try JSONSchemaTestSupport.compile(schema, Self.flexible), #"{"b":1,"a":2}"#))
    }
}
