import GuidedSchema

/// Converts a JSON Schema to OpenAI's strict structured-output subset, or lists why it cannot be.
///
/// Strict mode requires every object to list all its properties in `required` and to set
/// `additionalProperties: false`. An optional property therefore becomes required and nullable; the model may
/// then answer `null` where the original schema wanted the key absent, and `restoreOptionalMembers` turns
/// such nulls back into absent keys. Keywords outside the subset are not dropped (that would loosen the
/// schema silently): each is reported, with its location, before anything is sent. Pure annotations
/// (`default`, `examples`, `$comment`, …) constrain nothing and are removed.
public enum OpenAIStrictSchema {
    /// Keywords strict mode accepts.
    static let supported: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref",
        "$defs", "definitions", "description", "title", "pattern", "format", "multipleOf", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
    ]
    /// Annotations removed because they constrain nothing.
    static let annotations: Set<String> = ["$schema", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly"]
    static let formats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]
    static let types: Set<String> = ["string", "number", "integer", "boolean", "object", "array", "null"]
    /// Documented limits of the subset.
    public static let maximumNesting = 10
    public static let maximumProperties = 5_000
    public static let maximumEnumValues = 1_000

    /// The schema in strict form, or `.strictSchemaViolations` listing every problem found.
    public static func transform(_ schema: JSONValue) throws(ChatClientError) -> JSONValue {
        var t = Transformer()
        if case .object(let root) = schema {
            if root["anyOf"] != nil { t.report("", "the root may not be `anyOf`") }
            if root["type"] != .string("object") { t.report("", "the root must have `type: \"object\"`") }
        }
        let out = t.walk(schema, pointer: "", depth: 0)
        if t.propertyCount > maximumProperties {
            t.report("", "\(t.propertyCount) properties in total, more than \(maximumProperties)")
        }
        if t.enumValueCount > maximumEnumValues {
            t.report("", "\(t.enumValueCount) enum values in total, more than \(maximumEnumValues)")
        }
        if !t.violations.isEmpty { throw .strictSchemaViolations(t.violations) }
        return out
    }

    struct Transformer {
        var violations: [StrictSchemaViolation] = []
        var propertyCount = 0
        var enumValueCount = 0

        mutating func report(_ pointer: String, _ reason: String) {
            violations.append(StrictSchemaViolation(pointer: pointer, reason: reason))
        }

        static func escape(_ key: String) -> String {
            key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }

        mutating func walk(_ schema: JSONValue, pointer: String, depth: Int) -> JSONValue {
            guard case .object(let node) = schema else {
                report(pointer, schema.boolValue != nil ? "boolean schemas are not supported" : "a schema must be an object")
                return schema
            }
            var out = JSONObject()
            let typeNames: [String]
            switch node["type"] {
            case .string(let t)?: typeNames = [t]
            case .array(let a)?: typeNames = a.compactMap(\.stringValue)
            default: typeNames = []
            }
            let isObject = typeNames.contains("object") || node["properties"] != nil
            let nextDepth = isObject ? depth + 1 : depth
            if isObject, nextDepth > OpenAIStrictSchema.maximumNesting {
                report(pointer, "objects nested more than \(OpenAIStrictSchema.maximumNesting) deep")
            }
            for (key, value) in node {
                let here = pointer + "/" + Transformer.escape(key)
                if OpenAIStrictSchema.annotations.contains(key) { continue }
                guard OpenAIStrictSchema.supported.contains(key) else {
                    report(pointer, "keyword `\(key)` is not supported in strict mode")
                    continue
                }
                switch key {
                case "type":
                    let names: [JSONValue] = value.arrayValue ?? [value]
                    for n in names where !(n.stringValue.map(OpenAIStrictSchema.types.contains) ?? false) {
                        report(here, "unknown type \(n)")
                    }
                    out[key] = value
                case "properties":
                    guard case .object(let props) = value else { report(here, "`properties` must be an object"); continue }
                    let required = Set(node["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                    var newProps = JSONObject()
                    for (name, sub) in props {
                        propertyCount += 1
                        let converted = walk(sub, pointer: here + "/" + Transformer.escape(name), depth: nextDepth)
                        newProps[name] = required.contains(name) ? converted : Transformer.nullable(converted)
                    }
                    out[key] = .object(newProps)
                case "required":
                    let props = node["properties"]?.objectValue ?? JSONObject()
                    for r in value.arrayValue ?? [] {
                        if let name = r.stringValue, props[name] == nil {
                            report(here, "required property `\(name)` is not in `properties`")
                        }
                    }
                    // Rewritten below from `properties`.
                case "additionalProperties":
                    if value != .bool(false) { report(here, "`additionalProperties` must be false") }
                case "items":
                    if case .array = value { report(here, "tuple-form `items` is not supported") } else {
                        out[key] = walk(value, pointer: here, depth: nextDepth)
                    }
                case "anyOf":
                    guard case .array(let branches) = value else { report(here, "`anyOf` must be an array"); continue }
                    out[key] = .array(branches.enumerated().map { walk($0.element, pointer: here + "/\($0.offset)", depth: depth) })
                case "$defs", "definitions":
                    guard case .object(let defs) = value else { report(here, "`\(key)` must be an object"); continue }
                    var newDefs = JSONObject()
                    for (name, sub) in defs {
                        newDefs[name] = walk(sub, pointer: here + "/" + Transformer.escape(name), depth: 0)
                    }
                    out[key] = .object(newDefs)
                case "$ref":
                    if !(value.stringValue?.hasPrefix("#") ?? false) { report(here, "only local `#…` references are supported") }
                    out[key] = value
                case "format":
                    if let f = value.stringValue, !OpenAIStrictSchema.formats.contains(f) {
                        report(here, "format `\(f)` is not supported in strict mode")
                    }
                    out[key] = value
                case "enum":
                    enumValueCount += value.arrayValue?.count ?? 0
                    out[key] = value
                default:
                    out[key] = value
                }
            }
            if isObject {
                let props = out["properties"]?.objectValue ?? JSONObject()
                if out["properties"] == nil { out["properties"] = .object(JSONObject()) }
                out["required"] = .array(props.keys.map(JSONValue.string))
                out["additionalProperties"] = .bool(false)
            }
            return .object(out)
        }

        /// Makes a converted property schema also accept `null`.
        static func nullable(_ schema: JSONValue) -> JSONValue {
            guard case .object(var node) = schema else { return schema }
            if node["const"] == nil {
                switch node["type"] {
                case .string(let t)?:
                    if t == "null" { return schema }
                    node["type"] = [.string(t), "null"]
                    if case .array(var values)? = node["enum"], !values.contains(.null) {
                        values.append(.null)
                        node["enum"] = .array(values)
                    }
                    return .object(node)
                case .array(var names)?:
                    if !names.contains("null") { names.append("null") }
                    node["type"] = .array(names)
                    if case .array(var values)? = node["enum"], !values.contains(.null) {
                        values.append(.null)
                        node["enum"] = .array(values)
                    }
                    return .object(node)
                default:
                    break
                }
            }
            if node.count == 1, case .array(var branches)? = node["anyOf"] {
                if !branches.contains(["type": "null"]) { branches.append(["type": "null"]) }
                return ["anyOf": .array(branches)]
            }
            return ["anyOf": [schema, ["type": "null"]]]
        }
    }
}
