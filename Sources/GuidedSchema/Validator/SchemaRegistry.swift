import Foundation

/// Where `$ref`s land: every schema resource (documents and embedded `$id`s) by absolute URI, and every
/// anchor (`$anchor`, `$dynamicAnchor`, fragment identifiers of the older drafts) by `URI#name`.
///
/// Nothing is fetched from the network: a reference to a document that was not registered fails the
/// validation with a violation naming it. Register remote documents from a folder with
/// `registerDirectory(_:as:defaultDraft:)`, as the JSON Schema Test Suite's `remotes/` is served at
/// `http://localhost:1234/`.
public struct SchemaRegistry: Sendable {
    var resources: [String: SchemaNode] = [:]
    var anchors: [String: SchemaNode] = [:]
    /// Resource URI to the `$dynamicAnchor` names it declares.
    var dynamicAnchors: [String: Set<String>] = [:]

    public init() {}

    /// All registered resource URIs, for diagnostics.
    public var resourceURIs: [String] { resources.keys.sorted() }

    /// Registers a schema document retrieved from `uri`, with its embedded resources and anchors. The
    /// document's `$schema` picks its dialect; `defaultDraft` applies when it has none.
    public mutating func register(_ document: JSONValue, uri: String, defaultDraft: JSONSchemaDraft) {
        let base = URIReference.split(uri).base
        let root = SchemaNode(value: document, base: base, draft: defaultDraft)
        resources[base] = root
        index(root)
    }

    /// Registers every `.json` file under `directory` as the document at `baseURI` + its relative path.
    public mutating func registerDirectory(_ directory: String, as baseURI: String, defaultDraft: JSONSchemaDraft) throws {
        let root = URL(fileURLWithPath: directory)
        guard let walker = FileManager.default.enumerator(atPath: directory) else {
            throw JSONSchemaError.unreadable(path: directory, reason: "not a directory")
        }
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".json") else { continue }
            let url = root.appendingPathComponent(relative)
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw JSONSchemaError.unreadable(path: url.path, reason: "\(error)")
            }
            let value: JSONValue
            do { value = try JSONParser.parse(bytes: [UInt8](data)) } catch {
                throw JSONSchemaError.unreadable(path: url.path, reason: error.description)
            }
            register(value, uri: baseURI + relative, defaultDraft: defaultDraft)
        }
    }

    /// Walks a schema, recording resources and anchors. Only keywords whose values are schemas are
    /// entered, so an `$id` inside `enum`, `const` or an unknown keyword is data, not an identifier.
    mutating func index(_ node: SchemaNode) {
        guard case .object(let o) = node.value else { return }
        let inner = node.entered()
        // Nodes are stored as found (outer base): evaluation enters them itself.
        if inner.base != node.base { resources[inner.base] = node }
        let d = inner.draft
        if let id = o[d.idKeyword]?.stringValue, !(d.refOverridesSiblings && o["$ref"] != nil), d <= .draft7 {
            // Older drafts name plain-name fragments through the identifier itself.
            let (_, fragment) = URIReference.split(URIReference.resolve(id, against: node.base))
            if let fragment, !fragment.isEmpty, !fragment.hasPrefix("/") {
                anchors[inner.base + "#" + fragment] = node
            }
        }
        if d >= .draft2019_09, let a = o["$anchor"]?.stringValue { anchors[inner.base + "#" + a] = node }
        if d >= .draft2020_12, let a = o["$dynamicAnchor"]?.stringValue {
            anchors[inner.base + "#" + a] = node
            dynamicAnchors[inner.base, default: []].insert(a)
        }
        for (key, value) in o {
            for child in SchemaRegistry.subschemas(of: key, value) {
                index(SchemaNode(value: child, base: inner.base, draft: d))
            }
        }
    }

    /// The schemas a keyword's value holds (none for keywords that hold data).
    static func subschemas(of keyword: String, _ value: JSONValue) -> [JSONValue] {
        switch keyword {
        case "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then",
            "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema":
            return [value]
        case "items":
            if case .array(let a) = value { return a }
            return [value]
        case "allOf", "anyOf", "oneOf", "prefixItems":
            return value.arrayValue ?? []
        case "properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies":
            guard case .object(let m) = value else { return [] }
            return m.entries.map(\.value).filter { $0.objectValue != nil || $0.boolValue != nil }
        default:
            return []
        }
    }

    /// The schema an absolute URI (with optional fragment) designates, or nil.
    func lookup(_ uri: String) -> SchemaNode? {
        let (base, rawFragment) = URIReference.split(uri)
        guard let resource = resources[base] else { return nil }
        guard let rawFragment, !rawFragment.isEmpty else { return resource }
        let fragment = PercentDecoding.decode(rawFragment)
        if !fragment.hasPrefix("/") { return anchors[base + "#" + fragment] }
        guard let tokens = JSONPointer.tokens(fragment) else { return nil }
        // Walk the pointer, letting identifiers on the way move the base URI.
        var node = resource
        for token in tokens {
            let inner = node.entered()
            guard let next = JSONPointer.step(inner.value, token) else { return nil }
            node = SchemaNode(value: next, base: inner.base, draft: inner.draft)
        }
        return node
    }
}

/// A schema that cannot be used: unreadable, or not a schema.
public enum JSONSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalidSchema(schemaPath: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read schema \(path): \(reason)"
        case .invalidSchema(let schemaPath, let reason): return "invalid schema at \(schemaPath.isEmpty ? "/" : schemaPath): \(reason)"
        }
    }
}
