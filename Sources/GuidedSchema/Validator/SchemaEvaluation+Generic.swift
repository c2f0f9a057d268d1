extension SchemaEvaluation {
    /// `type`, `enum`, `const`: keywords for any instance type.
    func evaluateGeneric(_ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        if let type = c["type"] {
            let names: [String] = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            if !names.contains(where: { SchemaEvaluation.instance(c.instance, hasType: $0, draft: c.draft) }) {
                let expected = names.count == 1 ? names[0] : "one of " + names.joined(separator: ", ")
                c.fail("type", "expected \(expected), found \(SchemaEvaluation.typeDescription(c.instance))", &errors)
            }
        }
        if let options = c["enum"]?.arrayValue, !options.contains(c.instance) {
            c.fail("enum", "\(SchemaEvaluation.describe(c.instance)) is not one of \(SchemaEvaluation.describe(.array(options)))", &errors)
        }
        if c.draft >= .draft6, let constant = c["const"], constant != c.instance {
            c.fail("const", "expected \(SchemaEvaluation.describe(constant)), found \(SchemaEvaluation.describe(c.instance))", &errors)
        }
    }

    static func instance(_ v: JSONValue, hasType name: String, draft: JSONSchemaDraft) -> Bool {
        switch (name, v) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            return true
        case ("integer", .number(let n)):
            // Draft 4 predates "1.0 is an integer"; its literal decides.
            if draft == .draft4 { return n.isInteger && !n.text.contains(".") && !n.text.contains("e-") && !n.text.contains("E-") }
            return n.isInteger
        default:
            return false
        }
    }

    static func typeDescription(_ v: JSONValue) -> String {
        if case .number(let n) = v, n.isInteger { return "integer \(n.text)" }
        if case .number(let n) = v { return "number \(n.text)" }
        return v.typeName
    }
}
