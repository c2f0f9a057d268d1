extension SchemaEvaluation {
    /// `items`, `prefixItems`, `additionalItems`, `contains` with `minContains`/`maxContains`, `minItems`,
    /// `maxItems`, `uniqueItems`.
    func evaluateArray(_ items: [JSONValue], _ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        var tupleLength: Int?
        // The positional schemas: `prefixItems` from 2020-12 on, an array-valued `items` before.
        let tupleKeyword = c.draft >= .draft2020_12 ? "prefixItems" : "items"
        if let tuple = c[tupleKeyword]?.arrayValue {
            tupleLength = tuple.count
            for (i, item) in items.enumerated() where i < tuple.count {
                if evaluateChild(tuple[i], of: c, at: c.path(tupleKeyword, String(i)), instance: item, instancePath: c.instancePath(String(i)), &errors) == nil {
                    c.valid = false
                }
            }
            c.evaluated.itemPrefix = max(c.evaluated.itemPrefix, min(items.count, tuple.count))
        }
        // The schema for the rest: `items` from 2020-12 on, `additionalItems` after an array `items` before.
        let restKeyword: String?
        if c.draft >= .draft2020_12 {
            restKeyword = "items"
        } else if let items = c["items"], items.arrayValue == nil {
            restKeyword = "items"
        } else if tupleLength != nil {
            restKeyword = "additionalItems"
        } else {
            restKeyword = nil
        }
        if let restKeyword, let rest = c[restKeyword], rest.arrayValue == nil {
            let start = tupleLength ?? 0
            for i in start..<max(start, items.count) {
                if evaluateChild(rest, of: c, at: c.path(restKeyword), instance: items[i], instancePath: c.instancePath(String(i)), &errors) == nil {
                    c.valid = false
                }
            }
            c.evaluated.allItems = true
        }
        if c.draft >= .draft6, let contains = c["contains"] {
            var matched: [Int] = []
            for (i, item) in items.enumerated()
            where passes(contains, of: c, at: c.path("contains"), instance: item, instancePath: c.instancePath(String(i))) != nil {
                matched.append(i)
            }
            let newer = c.draft >= .draft2019_09
            let minimum = newer ? (c["minContains"]?.numberValue?.intValue ?? 1) : 1
            let maximum = newer ? c["maxContains"]?.numberValue?.intValue : nil
            if matched.count < minimum {
                let keyword = newer && c["minContains"] != nil ? "minContains" : "contains"
                c.fail(keyword, matched.isEmpty ? "no item matches the 'contains' schema" : "\(matched.count) items match the 'contains' schema, fewer than \(minimum)", &errors)
            }
            if let maximum, matched.count > maximum {
                c.fail("maxContains", "\(matched.count) items match the 'contains' schema, more than \(maximum)", &errors)
            }
            if c.draft >= .draft2020_12 { c.evaluated.items.formUnion(matched) }
        }
        if let max = c["maxItems"]?.numberValue?.intValue, items.count > max {
            c.fail("maxItems", "array of \(items.count) items has more than \(max)", &errors)
        }
        if let min = c["minItems"]?.numberValue?.intValue, items.count < min {
            c.fail("minItems", "array of \(items.count) items has fewer than \(min)", &errors)
        }
        if c["uniqueItems"]?.boolValue == true {
            var seen: [JSONValue: Int] = [:]
            for (i, item) in items.enumerated() {
                if let first = seen[item] {
                    c.fail("uniqueItems", "items \(first) and \(i) are equal", &errors)
                    break
                }
                seen[item] = i
            }
        }
    }

    /// `unevaluatedItems`: items no adjacent or nested successful keyword looked at.
    func evaluateUnevaluatedItems(_ items: [JSONValue], _ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        guard let schema = c["unevaluatedItems"] else { return }
        for (i, item) in items.enumerated() where !c.evaluated.isItemEvaluated(i) {
            if evaluateChild(schema, of: c, at: c.path("unevaluatedItems"), instance: item, instancePath: c.instancePath(String(i)), &errors) == nil {
                c.valid = false
            }
        }
        c.evaluated.allItems = true
    }
}
