extension SchemaEvaluation {
    /// `properties`, `patternProperties`, `additionalProperties`, `required`, `dependencies`,
    /// `dependentRequired`, `dependentSchemas`, `propertyNames`, `minProperties`, `maxProperties`.
    func evaluateObject(_ members: JSONObject, _ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        let properties = c["properties"]?.objectValue
        let patternProperties = c["patternProperties"]?.objectValue
        var matchedByPattern: Set<String> = []
        if let properties {
            for (name, value) in members {
                guard let schema = properties[name] else { continue }
                if evaluateChild(schema, of: c, at: c.path("properties", name), instance: value, instancePath: c.instancePath(name), &errors) == nil {
                    c.valid = false
                }
                c.evaluated.properties.insert(name)
            }
        }
        if let patternProperties {
            for (source, schema) in patternProperties {
                guard case .success(let p) = pattern(source) else {
                    c.fail("patternProperties", "the pattern \(source) cannot be compiled", &errors)
                    uncheckable.append(errors.last!)
                    continue
                }
                for (name, value) in members {
                    let isMatch: Bool
                    do { isMatch = try p.matches(name) } catch {
                        c.fail("patternProperties", "the pattern \(source) could not be evaluated on this name: \(error.message)", &errors, member: name)
                        uncheckable.append(errors.last!)
                        continue
                    }
                    guard isMatch else { continue }
                    matchedByPattern.insert(name)
                    c.evaluated.properties.insert(name)
                    if evaluateChild(schema, of: c, at: c.path("patternProperties", source), instance: value, instancePath: c.instancePath(name), &errors) == nil {
                        c.valid = false
                    }
                }
            }
        }
        if let additional = c["additionalProperties"] {
            for (name, value) in members where properties?[name] == nil && !matchedByPattern.contains(name) {
                c.evaluated.properties.insert(name)
                if case .bool(false) = additional {
                    c.fail("additionalProperties", "property \(SchemaEvaluation.describe(.string(name))) is not allowed", &errors, member: name)
                    continue
                }
                if evaluateChild(additional, of: c, at: c.path("additionalProperties"), instance: value, instancePath: c.instancePath(name), &errors) == nil {
                    c.valid = false
                }
            }
        }
        if let required = c["required"]?.arrayValue {
            let missing = required.compactMap(\.stringValue).filter { members[$0] == nil }
            if !missing.isEmpty {
                c.fail("required", "missing required \(missing.count == 1 ? "property" : "properties") \(missing.map { SchemaEvaluation.describe(.string($0)) }.joined(separator: ", "))", &errors)
            }
        }
        // `dependencies` was split in 2019-09; later drafts still honour it, as most implementations do.
        if let dependencies = c["dependencies"]?.objectValue {
            for (name, dependency) in dependencies where members[name] != nil {
                if let names = dependency.arrayValue {
                    let missing = names.compactMap(\.stringValue).filter { members[$0] == nil }
                    if !missing.isEmpty {
                        c.fail("dependencies", "property \(SchemaEvaluation.describe(.string(name))) requires \(missing.map { SchemaEvaluation.describe(.string($0)) }.joined(separator: ", "))", &errors)
                    }
                } else if evaluateChild(dependency, of: c, at: c.path("dependencies", name), instance: c.instance, instancePath: c.instancePath, &errors) == nil {
                    c.valid = false
                }
            }
        }
        if c.draft >= .draft2019_09 {
            if let dependentRequired = c["dependentRequired"]?.objectValue {
                for (name, names) in dependentRequired where members[name] != nil {
                    let missing = (names.arrayValue ?? []).compactMap(\.stringValue).filter { members[$0] == nil }
                    if !missing.isEmpty {
                        c.fail("dependentRequired", "property \(SchemaEvaluation.describe(.string(name))) requires \(missing.map { SchemaEvaluation.describe(.string($0)) }.joined(separator: ", "))", &errors)
                    }
                }
            }
            if let dependentSchemas = c["dependentSchemas"]?.objectValue {
                for (name, schema) in dependentSchemas where members[name] != nil {
                    if let evaluated = evaluateChild(schema, of: c, at: c.path("dependentSchemas", name), instance: c.instance, instancePath: c.instancePath, &errors) {
                        c.evaluated.merge(evaluated)
                    } else {
                        c.valid = false
                    }
                }
            }
        }
        if c.draft >= .draft6, let names = c["propertyNames"] {
            for (name, _) in members {
                if evaluateChild(names, of: c, at: c.path("propertyNames"), instance: .string(name), instancePath: c.instancePath(name), &errors) == nil {
                    c.valid = false
                }
            }
        }
        if let max = c["maxProperties"]?.numberValue?.intValue, members.count > max {
            c.fail("maxProperties", "object with \(members.count) properties has more than \(max)", &errors)
        }
        if let min = c["minProperties"]?.numberValue?.intValue, members.count < min {
            c.fail("minProperties", "object with \(members.count) properties has fewer than \(min)", &errors)
        }
    }

    /// `unevaluatedProperties`: members no adjacent or nested successful keyword looked at.
    func evaluateUnevaluatedProperties(_ members: JSONObject, _ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        guard let schema = c["unevaluatedProperties"] else { return }
        for (name, value) in members where !c.evaluated.properties.contains(name) {
            if case .bool(false) = schema {
                c.fail("unevaluatedProperties", "property \(SchemaEvaluation.describe(.string(name))) is not allowed (not evaluated by any subschema)", &errors, member: name)
                continue
            }
            if evaluateChild(schema, of: c, at: c.path("unevaluatedProperties"), instance: value, instancePath: c.instancePath(name), &errors) == nil {
                c.valid = false
            }
        }
        for name in members.keys { c.evaluated.properties.insert(name) }
    }
}
