extension SchemaEvaluation {
    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`. Every branch is evaluated (no short cut) so
    /// the annotations of all passing branches reach `unevaluated*`.
    func evaluateApplicators(_ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        if let all = c["allOf"]?.arrayValue {
            for (i, schema) in all.enumerated() {
                if let evaluated = evaluateChild(schema, of: c, at: c.path("allOf", String(i)), instance: c.instance, instancePath: c.instancePath, &errors) {
                    c.evaluated.merge(evaluated)
                } else {
                    c.valid = false
                }
            }
        }
        if let any = c["anyOf"]?.arrayValue {
            var matched = false
            for (i, schema) in any.enumerated() {
                if let evaluated = passes(schema, of: c, at: c.path("anyOf", String(i)), instance: c.instance, instancePath: c.instancePath) {
                    matched = true
                    c.evaluated.merge(evaluated)
                }
            }
            if !matched { c.fail("anyOf", "\(SchemaEvaluation.describe(c.instance)) matches none of the \(any.count) 'anyOf' schemas", &errors) }
        }
        if let one = c["oneOf"]?.arrayValue {
            var matches: [Int] = []
            var annotations = EvaluatedLocations()
            for (i, schema) in one.enumerated() {
                if let evaluated = passes(schema, of: c, at: c.path("oneOf", String(i)), instance: c.instance, instancePath: c.instancePath) {
                    matches.append(i)
                    annotations.merge(evaluated)
                }
            }
            if matches.isEmpty {
                c.fail("oneOf", "\(SchemaEvaluation.describe(c.instance)) matches none of the \(one.count) 'oneOf' schemas", &errors)
            } else if matches.count > 1 {
                c.fail("oneOf", "\(SchemaEvaluation.describe(c.instance)) matches 'oneOf' schemas \(matches.map(String.init).joined(separator: " and ")); exactly one must match", &errors)
            } else {
                c.evaluated.merge(annotations)
            }
        }
        if let not = c["not"], passes(not, of: c, at: c.path("not"), instance: c.instance, instancePath: c.instancePath) != nil {
            c.fail("not", "\(SchemaEvaluation.describe(c.instance)) matches the 'not' schema", &errors)
        }
        if c.draft >= .draft7, let condition = c["if"] {
            if let evaluated = passes(condition, of: c, at: c.path("if"), instance: c.instance, instancePath: c.instancePath) {
                c.evaluated.merge(evaluated)
                if let then = c["then"] {
                    if let e = evaluateChild(then, of: c, at: c.path("then"), instance: c.instance, instancePath: c.instancePath, &errors) {
                        c.evaluated.merge(e)
                    } else {
                        c.valid = false
                    }
                }
            } else if let otherwise = c["else"] {
                if let e = evaluateChild(otherwise, of: c, at: c.path("else"), instance: c.instance, instancePath: c.instancePath, &errors) {
                    c.evaluated.merge(e)
                } else {
                    c.valid = false
                }
            }
        }
    }
}
