import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar
import GuidedTestSupport

/// `PropertyOrder.anyOrder`: object members in any order, each declared key at most once, with
/// `required`, `min/maxProperties` and `dependentRequired` exact; objects over `maxMembers` candidates
/// fall back to declared order.
@Suite struct AnyOrderObjectTests {
    static let anyOrder = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .anyOrder(maxMembers: 8))

    static func anyCase(_ schema: String, accept: [String], reject: [String]) -> SchemaCase {
        SchemaCase(schema: schema, accept: accept, reject: reject, options: anyOrder)
    }

    static let cases: [SchemaCase] = [
        // Two members, both orders; duplicates and a missing required member rejected.
        anyCase(#"{"type":"object","properties":{"dimensions":{"type":"integer"},"shape":{"type":"string"}},"required":["shape","dimensions"]}"#,
                accept: [#"{"dimensions":1,"shape":"s"}"#, #"{"shape":"s","dimensions":1}"#, #"{"shape":"s","dimensions":1,"z":null}"#],
                reject: [#"{"shape":"s"}"#, #"{"dimensions":1}"#, #"{"shape":"s","shape":"t","dimensions":1}"#,
                         #"{"shape":"s","dimensions":1,"dimensions":2}"#, #"{"shape":1,"dimensions":1}"#, "{}"]),
        // Undeclared members may be interleaved; their names never take a declared name.
        anyCase(#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"additionalProperties":{"type":"boolean"}}"#,
                accept: [#"{"x":true,"a":1}"#, #"{"b":2,"x":true,"a":1}"#, #"{"x":true,"y":false,"b":1}"#, "{}"],
                reject: [#"{"a":1,"x":true,"a":2}"#, #"{"x":true,"a":true}"#, #"{"b":1,"x":2}"#]),
        // dependentRequired in both orders.
        anyCase(#"{"type":"object","properties":{"a":{},"b":{},"c":{}},"dependentRequired":{"c":["a"]},"additionalProperties":false}"#,
                accept: [#"{"a":1,"c":2}"#, #"{"c":2,"a":1}"#, #"{"b":1,"c":2,"a":3}"#, #"{"b":1}"#, #"{"a":1}"#, "{}"],
                reject: [#"{"c":1}"#, #"{"b":1,"c":2}"#, #"{"c":2,"b":1}"#, #"{"c":1,"a":1,"c":2}"#]),
        SchemaCase(schema: #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{},"b":{}},"dependencies":{"b":["a"]}}"#,
                   accept: [#"{"b":1,"a":2}"#, #"{"a":2,"b":1}"#, #"{"a":1}"#], reject: [#"{"b":1}"#, #"{"b":1,"z":2}"#], options: anyOrder),
        // minProperties / maxProperties, undeclared members counting toward both.
        anyCase(#"{"type":"object","minProperties":2,"maxProperties":2,"properties":{"a":{},"b":{},"c":{}},"additionalProperties":false}"#,
                accept: [#"{"a":1,"b":2}"#, #"{"b":1,"a":2}"#, #"{"c":1,"a":2}"#, #"{"c":1,"b":2}"#],
                reject: [#"{"a":1}"#, #"{"c":1,"b":2,"a":3}"#, "{}", #"{"a":1,"a":2}"#]),
        anyCase(#"{"type":"object","minProperties":2,"maxProperties":3,"properties":{"a":{},"b":{}}}"#,
                accept: [#"{"x":1,"a":2}"#, #"{"b":1,"x":1,"a":2}"#, #"{"a":1,"b":2}"#],
                reject: [#"{"a":1}"#, #"{"x":1}"#, #"{"x":1,"a":2,"b":3,"y":4}"#, #"{"b":1,"b":2}"#]),
        // additionalProperties: false, a stray key rejected in every position.
        anyCase(#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},"required":["b"],"additionalProperties":false}"#,
                accept: [#"{"b":"x"}"#, #"{"a":1,"b":"x"}"#, #"{"b":"x","a":1}"#],
                reject: [#"{"b":"x","c":1}"#, #"{"c":1,"b":"x"}"#, #"{"a":1,"c":1,"b":"x"}"#, #"{"b":"x","b":"y"}"#, "{}"]),
        // patternProperties apply to declared members too, and admit matching undeclared names anywhere.
        anyCase(#"{"type":"object","properties":{"s_a":{"type":"string"}},"patternProperties":{"^s_":{"minLength":2}},"additionalProperties":false}"#,
                accept: [#"{"s_b":"xy","s_a":"zz"}"#, #"{"s_a":"zz","s_b":"xy"}"#],
                reject: [#"{"s_b":"xy","s_a":"z"}"#, #"{"t":"xy","s_a":"zz"}"#, #"{"s_a":"zz","s_a":"yy"}"#]),
        // A forbidden declared member stays forbidden.
        anyCase(#"{"type":"object","properties":{"a":{},"b":false}}"#,
                accept: [#"{"a":1}"#, #"{"z":1,"a":1}"#], reject: [#"{"b":1}"#, #"{"a":1,"b":1}"#, #"{"b":1,"a":1}"#]),
        // Nested objects each get their own automaton.
        anyCase(#"{"type":"object","properties":{"p":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"required":["x","y"],"additionalProperties":false},"q":{"type":"boolean"}},"required":["p","q"],"additionalProperties":false}"#,
                accept: [#"{"q":true,"p":{"y":1,"x":2}}"#, #"{"p":{"x":1,"y":2},"q":false}"#],
                reject: [#"{"q":true,"p":{"y":1}}"#, #"{"q":true,"p":{"y":1,"x":2,"y":3}}"#, #"{"p":{"x":1,"y":2}}"#]),
        // oneOf of required groups: its negated branches forbid names, in every order.
        anyCase(#"{"type":"object","properties":{"dimensions":{"oneOf":[{"required":["radius"]},{"required":["length","width"]}],"properties":{"length":{"type":"number"},"radius":{"type":"number"},"width":{"type":"number"}},"type":"object"},"shape":{"type":"string"}},"required":["shape","dimensions"]}"#,
                accept: [#"{"shape":"circle","dimensions":{"radius":5}}"#, #"{"dimensions":{"width":5,"length":1},"shape":"r"}"#, #"{"shape":"c","dimensions":{"radius":5,"width":1}}"#],
                reject: [#"{"shape":"circle","dimensions":{"radius":5,"length":10,"width":5}}"#, #"{"shape":"circle","dimensions":{"width":5,"radius":5,"length":10}}"#, #"{"shape":"c","dimensions":{"width":1}}"#]),
        // MaskBench Glaiveai2K---calculate_area_0bc8b268: a oneOf branch keeps the negations of the other
        // branches (a branch's single-name "not required" was once lost when its sibling split into
        // alternatives), in any order and in declared order.
        SchemaCase(schema: #"{"properties": {"dimensions": {"oneOf": [{"required": ["radius"]}, {"required": ["length", "width"]}, {"required": ["base", "height"]}], "properties": {"base": {"type": "number"}, "height": {"type": "number"}, "length": {"type": "number"}, "radius": {"type": "number"}, "width": {"type": "number"}}, "type": "object"}, "shape": {"type": "string"}}, "required": ["shape", "dimensions"], "type": "object"}"#,
                accept: [#"{"shape": "circle", "dimensions": {"radius": 5}}"#],
                reject: [#"{"shape": "circle", "dimensions": {"radius": 5, "length": 10, "width": 5}}"#, #"{"shape": "circle", "dimensions": {"radius": null}}"#], options: JSONSchemaCompileOptions(propertyOrder: .anyOrder(maxMembers: 8))),
        SchemaCase(schema: #"{"properties": {"dimensions": {"oneOf": [{"required": ["radius"]}, {"required": ["length", "width"]}, {"required": ["base", "height"]}], "properties": {"base": {"type": "number"}, "height": {"type": "number"}, "length": {"type": "number"}, "radius": {"type": "number"}, "width": {"type": "number"}}, "type": "object"}, "shape": {"type": "string"}}, "required": ["shape", "dimensions"], "type": "object"}"#,
                accept: [#"{"dimensions": {"radius": 5}, "shape": "circle"}"#, #"{"dimensions": {"length": 1, "width": 5}, "shape": "r"}"#],
                reject: [#"{"dimensions": {"length": 10, "radius": 5, "width": 5}, "shape": "circle"}"#, #"{"dimensions": {"radius": null}, "shape": "circle"}"#]),
        // Over maxMembers: declared order only.
        SchemaCase(schema: #"{"type":"object","properties":{"a":{},"b":{},"c":{}},"additionalProperties":false}"#,
                   accept: [#"{"a":1,"b":2,"c":3}"#, #"{"a":1,"c":3}"#], reject: [#"{"b":2,"a":1}"#, #"{"c":3,"a":1,"b":2}"#, #"{"a":1,"a":2}"#],
                   options: JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .anyOrder(maxMembers: 2))),
    ]

    @Test(arguments: cases)
    func acceptsExactly(_ c: SchemaCase) throws {
        try JSONSchemaTestSupport.expectExactly(c)
    }

    /// Declared order is still the default: the same two-member object out of order is rejected.
    @Test func declaredOrderStaysTheDefault() throws {
        let schema = #"{"type":"object","properties":{"a":{},"b":{}}}"#
        let declared = try JSONSchemaTestSupport.compile(schema, JSONSchemaCompileOptions(whitespace: .compact))
        #expect(!JSONSchemaTestSupport.accepts(declared, #"{"b":1,"a":2}"#))
        let any = try JSONSchemaTestSupport.compile(schema, Self.anyOrder)
        #expect(JSONSchemaTestSupport.accepts(any, #"{"b":1,"a":2}"#))
    }

    /// Every key sequence over {a, b, c, x, y} up to length 4 with x and y at most once each (533
    /// objects): the grammar accepts exactly the valid ones — a present, c needs b, 2...3 members, no
    /// repeated key. (A repeated undeclared key is the documented departure of `maxUndeclaredProperties`.)
    @Test func exhaustiveKeySequences() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}},"required":["a"],"dependentRequired":{"c":["b"]},"minProperties":2,"maxProperties":3,"additionalProperties":{"type":"boolean"}}"#
        let g = try JSONSchemaTestSupport.compile(schema, Self.anyOrder)
        let recognizer = try ReferenceRecognizer(g)
        let keys = ["a", "b", "c", "x", "y"]
        let sequences = JSONSchemaTestSupport.keySequences(keys, upTo: 4)
        var checked = 0
        for s in sequences {
            let undeclared = s.filter { $0 == "x" || $0 == "y" }
            if Set(undeclared).count != undeclared.count { continue }
            let distinct = Set(s).count == s.count
            let valid = distinct && s.contains("a") && (!s.contains("c") || s.contains("b")) && (2...3).contains(s.count)
            let text = "{" + s.map { "\"\($0)\":" + ($0 == "x" || $0 == "y" ? "true" : "1") }.joined(separator: ",") + "}"
            #expect(recognizer.accepts(text) == valid, "\(text) should be \(valid ? "accepted" : "rejected")")
            checked += 1
        }
        #expect(checked == 533)
    }

    /// Once the schema's `maxAnyOrderUnits` is spent, objects keep declared order.
    @Test func unitBudgetFallsBackToDeclaredOrder() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}"#
        var options = Self.anyOrder
        options.limits.maxAnyOrderUnits = 0
        let g = try JSONSchemaTestSupport.compile(schema, options)
        #expect(JSONSchemaTestSupport.accepts(g, #"{"a":1,"b":2}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"b":2,"a":1}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"a":1,"a":2}"#))
    }

    /// An object whose presence sets pass `maxObjectStates` is refused, naming the object.
    @Test func stateLimitIsEnforced() throws {
        var options = Self.anyOrder
        options.limits.maxObjectStates = 100
        let schema = #"{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{}}}"#
        let e = JSONSchemaTestSupport.error(schema, options)
        #expect(e?.kind == .tooComplex)
        #expect(e?.keyword == "properties")
        #expect(e?.pointer == "")
    }

    // MARK: soundness over the JSON Schema Test Suite

    /// The instance with every object's members reversed (recursively): the same instance for JSON Schema.
    static func reversedMembers(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let o): return .object(JSONObject(o.entries.reversed().map { ($0.key, reversedMembers($0.value)) }))
        case .array(let items): return .array(items.map(reversedMembers))
        default: return v
        }
    }

    /// Every schema of the suite compiled with `.anyOrder`; every invalid instance, as given and with its
    /// members reversed, must be rejected. Valid instances as given are counted (not required: an object
    /// over `maxMembers` or an inner fallback may reject them).
    @Test(.enabled(if: SharedData.present(for: "AnyOrderObjectTests (Test Suite)")), arguments: JSONSchemaSuiteSweepTests.drafts)
    func noInvalidInstanceAcceptedInAnyOrder(_ draftName: String) throws {
        try Self.sweep(draftName, order: .anyOrder(maxMembers: 8), label: "any-order")
    }

    /// The sweep of `noInvalidInstanceAcceptedInAnyOrder` under another property order.
    static func sweep(_ draftName: String, order: JSONSchemaCompileOptions.PropertyOrder, label: String) throws {
        let draft = try #require(JSONSchemaDraft(rawValue: draftName))
        let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: order, defaultDraft: draft)
        var falsePositives: [String] = []
        var compiled = 0, validAccepted = 0, validTotal = 0, invalidChecked = 0
        for file in JSONSchemaSuiteSweepTests.files(draftName) {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard case .array(let groups) = try JSONParser.parse(text) else { continue }
            for group in groups {
                guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                guard let grammar = try? JSONSchemaCompiler.compile(schema, options: options),
                      let recognizer = try? ReferenceRecognizer(grammar) else { continue }
                compiled += 1
                for test in tests {
                    guard let data = test["data"], case .bool(let valid)? = test["valid"] else { continue }
                    if valid {
                        validTotal += 1
                        if recognizer.accepts(data.serialized(.compact)) { validAccepted += 1 }
                        continue
                    }
                    for instance in [data, Self.reversedMembers(data)] {
                        invalidChecked += 1
                        if recognizer.accepts(instance.serialized(.compact)) {
                            falsePositives.append("\(file.lastPathComponent): \(group["description"]?.stringValue ?? "") / \(test["description"]?.stringValue ?? ""): \(instance.serialized(.compact))")
                        }
                    }
                }
            }
        }
        print("\(label) sweep \(draftName): compiled \(compiled); valid accepted \(validAccepted)/\(validTotal); invalid checked \(invalidChecked); false positives \(falsePositives.count)")
        for fp in falsePositives { print("FALSE POSITIVE \(draftName): \(fp)") }
        #expect(compiled > 0)
        #expect(falsePositives.isEmpty)
    }
}
