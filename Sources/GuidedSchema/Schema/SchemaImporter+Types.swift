/// Typed nodes: the keywords of one JSON type read into the matching constraint struct.
extension SchemaImporter {
    func typedNode(_ type: String, _ o: JSONObject, at p: String, checkOthers: Bool = true) throws(SchemaError) -> OutputSchema {
        let own = SchemaImporter.keywords(for: type)
        if checkOthers { try refuseConstraints(o, at: p, beside: "type", allowed: own) }
        let hasEnum = o["enum"] != nil || o["const"] != nil
        if hasEnum && checkOthers && type != "string" {
            // A non-string enum is just its values; bounds beside it would have to filter them.
            for key in o.keys where own.contains(key) {
                throw .unsupportedKeyword(keyword: key, pointer: p, reason: "cannot be combined with enum/const on a \(type)")
            }
            let values = try enumValues(o, at: p, matching: [type])
            return OutputSchema(o["const"] != nil ? .constant(values[0]) : .enumeration(values))
        }
        switch type {
        case "null": return .null
        case "boolean": return .boolean
        case "string": return OutputSchema(.string(try stringSchema(o, at: p, withEnum: checkOthers)))
        case "integer": return OutputSchema(.integer(try numberSchema(o, at: p)))
        case "number": return OutputSchema(.number(try numberSchema(o, at: p)))
        case "array": return OutputSchema(.array(try arraySchema(o, at: p)))
        default: return OutputSchema(.object(try objectSchema(o, at: p)))
        }
    }

    func count(_ o: JSONObject, _ key: String, at p: String) throws(SchemaError) -> Int? {
        guard let v = o[key] else { return nil }
        guard let n = v.numberValue, let k = n.intValue, k >= 0 else {
            throw .invalidSchema(keyword: key, pointer: p, reason: "must be a non-negative integer")
        }
        return k
    }

    func number(_ o: JSONObject, _ key: String, at p: String) throws(SchemaError) -> JSONNumber? {
        guard let v = o[key] else { return nil }
        guard let n = v.numberValue else { throw .invalidSchema(keyword: key, pointer: p, reason: "must be a number") }
        return n
    }

    func stringSchema(_ o: JSONObject, at p: String, withEnum: Bool) throws(SchemaError) -> StringSchema {
        var s = StringSchema()
        if withEnum && (o["enum"] != nil || o["const"] != nil) {
            let values = try enumValues(o, at: p, matching: ["string"]).compactMap(\.stringValue)
            if o["const"] != nil { s.constant = values[0] } else { s.allowedValues = values }
        }
        s.minLength = try count(o, "minLength", at: p)
        s.maxLength = try count(o, "maxLength", at: p)
        if let r = o["pattern"] {
            guard let text = r.stringValue else { throw .invalidSchema(keyword: "pattern", pointer: p, reason: "must be a string") }
            if let problem = OutputSchema.patternProblem(text) {
                throw .invalidSchema(keyword: "pattern", pointer: p, reason: problem)
            }
            s.pattern = text
        }
        if let f = o["format"] {
            guard let name = f.stringValue else { throw .invalidSchema(keyword: "format", pointer: p, reason: "must be a string") }
            guard let format = StringFormat(rawValue: name) else {
                throw .unsupportedKeyword(keyword: "format", pointer: p, reason: "unknown format \"\(name)\" cannot be enforced")
            }
            s.format = format
        }
        return s
    }

    func numberSchema(_ o: JSONObject, at p: String) throws(SchemaError) -> NumberSchema {
        var n = NumberSchema()
        n.minimum = try number(o, "minimum", at: p)
        n.maximum = try number(o, "maximum", at: p)
        if draft == .draft4 {
            // Draft 4: booleans that make `minimum`/`maximum` exclusive.
            for (key, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
                guard let v = o[key] else { continue }
                guard let flag = v.boolValue else {
                    throw .invalidSchema(keyword: key, pointer: p, reason: "must be a boolean in draft 4")
                }
                guard flag else { continue }
                guard o[bound] != nil else {
                    throw .invalidSchema(keyword: key, pointer: p, reason: "needs \"\(bound)\" in draft 4")
                }
                if bound == "minimum" { n.exclusiveMinimum = n.minimum; n.minimum = nil }
                else { n.exclusiveMaximum = n.maximum; n.maximum = nil }
            }
        } else {
            n.exclusiveMinimum = try number(o, "exclusiveMinimum", at: p)
            n.exclusiveMaximum = try number(o, "exclusiveMaximum", at: p)
        }
        if let m = try number(o, "multipleOf", at: p) {
            guard !m.isNegative, !m.isZero else {
                throw .invalidSchema(keyword: "multipleOf", pointer: p, reason: "must be strictly positive")
            }
            n.multipleOf = m
        }
        return n
    }

    func arraySchema(_ o: JSONObject, at p: String) throws(SchemaError) -> ArraySchema {
        var items = OutputSchema.any
        if let i = o["items"] {
            if case .array = i {
                throw .unsupportedKeyword(keyword: "items", pointer: p, reason: "tuple form (an array of schemas) is not supported")
            }
            items = try node(i, at: p + "/items")
        }
        return ArraySchema(items: items, minItems: try count(o, "minItems", at: p), maxItems: try count(o, "maxItems", at: p))
    }

    func objectSchema(_ o: JSONObject, at p: String) throws(SchemaError) -> ObjectSchema {
        var properties: [SchemaProperty] = []
        if let ps = o["properties"] {
            guard case .object(let members) = ps else {
                throw .invalidSchema(keyword: "properties", pointer: p, reason: "must be an object of schemas")
            }
            for (name, sub) in members {
                let schema = try node(sub, at: JSONPointer.appending(p + "/properties", name))
                properties.append(SchemaProperty(name: name, schema: schema, isRequired: false))
            }
        }
        var additional = AdditionalProperties.allowed
        switch o["additionalProperties"] {
        case nil, .bool(true)?: break
        case .bool(false)?: additional = .forbidden
        case let s?: additional = .schema(try node(s, at: p + "/additionalProperties"))
        }
        if let r = o["required"] {
            guard case .array(let names) = r else {
                throw .invalidSchema(keyword: "required", pointer: p, reason: "must be an array of strings")
            }
            for n in names {
                guard let name = n.stringValue else {
                    throw .invalidSchema(keyword: "required", pointer: p, reason: "must be an array of strings")
                }
                if let i = properties.firstIndex(where: { $0.name == name }) {
                    properties[i].isRequired = true
                } else {
                    // A required key without a property schema takes the schema other keys get.
                    switch additional {
                    case .forbidden:
                        throw .unsupportedKeyword(keyword: "required", pointer: p, reason: "\"\(name)\" is required but additionalProperties is false, so nothing is valid")
                    case .allowed: properties.append(SchemaProperty(name: name, schema: .any, isRequired: true))
                    case .schema(let s): properties.append(SchemaProperty(name: name, schema: s, isRequired: true))
                    }
                }
            }
        }
        for key in ["x-order", "propertyOrdering"] {
            guard let order = o[key] else { continue }
            properties = try reordered(properties, by: order, keyword: key, at: p)
        }
        return ObjectSchema(properties: properties, additionalProperties: additional)
    }

    /// Properties named in `order` first, in that order; the others after, as written.
    func reordered(_ properties: [SchemaProperty], by order: JSONValue, keyword: String, at p: String) throws(SchemaError) -> [SchemaProperty] {
        guard case .array(let names) = order else {
            throw .invalidSchema(keyword: keyword, pointer: p, reason: "must be an array of property names")
        }
        var first: [SchemaProperty] = []
        for n in names {
            guard let name = n.stringValue, let prop = properties.first(where: { $0.name == name }) else {
                throw .invalidSchema(keyword: keyword, pointer: p, reason: "\(n.serialized()) is not a declared property")
            }
            guard !first.contains(where: { $0.name == name }) else {
                throw .invalidSchema(keyword: keyword, pointer: p, reason: "\"\(name)\" listed twice")
            }
            first.append(prop)
        }
        return first + properties.filter { p in !first.contains { $0.name == p.name } }
    }
}
