import Foundation
import GuidedSchema

extension OpenAIStrictSchema {
    /// Undoes the optional-to-nullable rewrite on a value produced under the strict form of `original`:
    /// a `null` member for a property that `original` made optional and does not allow to be null is
    /// removed (the model meant "absent"). Other values are returned unchanged; the caller still validates
    /// the result against `original`.
    public static func restoreOptionalMembers(_ value: JSONValue, original: JSONValue) -> JSONValue {
        Restorer(root: original).restore(value, schema: original, depth: 0)
    }

    struct Restorer {
        let root: JSONValue
        static let maximumDepth = 256

        func restore(_ value: JSONValue, schema: JSONValue, depth: Int) -> JSONValue {
            guard depth < Restorer.maximumDepth, case .object(let node) = schema else { return value }
            if let ref = node["$ref"]?.stringValue, let target = resolve(ref) {
                return restore(value, schema: target, depth: depth + 1)
            }
            if let branches = node["anyOf"]?.arrayValue,
               let branch = branches.first(where: { Restorer.admitsType(of: value, $0) }) {
                return restore(value, schema: branch, depth: depth + 1)
            }
            switch value {
            case .object(let members):
                guard let props = node["properties"]?.objectValue else { return value }
                let required = Set(node["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                var out = JSONObject()
                for (key, member) in members {
                    guard let sub = props[key] else { out[key] = member; continue }
                    if member.isNull, !required.contains(key), !acceptsNull(sub, depth: depth) { continue }
                    out[key] = restore(member, schema: sub, depth: depth + 1)
                }
                return .object(out)
            case .array(let items):
                guard let itemSchema = node["items"], itemSchema.objectValue != nil else { return value }
                return .array(items.map { restore($0, schema: itemSchema, depth: depth + 1) })
            default:
                return value
            }
        }

        /// Whether `schema` could accept `null` (conservative: unknown shapes count as accepting it, so
        /// nothing is removed that the schema might have wanted).
        func acceptsNull(_ schema: JSONValue, depth: Int) -> Bool {
            guard depth < Restorer.maximumDepth else { return true }
            guard case .object(let node) = schema else { return schema.boolValue ?? true }
            if let ref = node["$ref"]?.stringValue {
                guard let target = resolve(ref) else { return true }
                if !acceptsNull(target, depth: depth + 1) { return false }
            }
            if let c = node["const"], !c.isNull { return false }
            if let e = node["enum"]?.arrayValue, !e.contains(.null) { return false }
            switch node["type"] {
            case .string(let t)?: if t != "null" { return false }
            case .array(let ts)?: if !ts.contains("null") { return false }
            default: break
            }
            if let branches = node["anyOf"]?.arrayValue, !branches.contains(where: { acceptsNull($0, depth: depth + 1) }) {
                return false
            }
            return true
        }

        static func admitsType(of value: JSONValue, _ schema: JSONValue) -> Bool {
            guard case .object(let node) = schema else { return true }
            let names: [String]
            switch node["type"] {
            case .string(let t)?: names = [t]
            case .array(let ts)?: names = ts.compactMap(\.stringValue)
            default: return true
            }
            if case .number(let n) = value, n.isInteger, names.contains("integer") { return true }
            return names.contains(value.typeName)
        }

        /// Resolves a local `#/…` JSON Pointer against the root schema.
        func resolve(_ ref: String) -> JSONValue? {
            guard ref.hasPrefix("#") else { return nil }
            var current = root
            let pointer = ref.dropFirst()
            if pointer.isEmpty { return current }
            guard pointer.hasPrefix("/") else { return nil }
            for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                let token = (String(raw).removingPercentEncoding ?? String(raw))
                    .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                switch current {
                case .object(let o): guard let next = o[token] else { return nil }; current = next
                case .array(let a): guard let i = Int(token), a.indices.contains(i) else { return nil }; current = a[i]
                default: return nil
                }
            }
            return current
        }
    }
}
