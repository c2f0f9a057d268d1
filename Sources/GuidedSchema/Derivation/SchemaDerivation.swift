extension OutputSchema {
    /// Derives a schema from `type`'s `Decodable` conformance by running its `init(from:)` against a
    /// recording decoder that answers with placeholder values.
    ///
    /// What is recorded: properties in the order `init(from:)` decodes them (declaration order for
    /// synthesized conformances), `decodeIfPresent` as optional properties, nested types, arrays, String-keyed
    /// dictionaries, `Date` (RFC 3339 `date-time`), `URL` (`uri`), `UUID` (`uuid`), `Decimal`, enums conforming
    /// to `SchemaEnumeration`, and recursion (a type met again inside itself) as `$ref` into `$defs` (or `#`
    /// for the root type). Nested `GuidedGenerable` types contribute their description, hints and declared
    /// schemas. The root type's name becomes the `title`.
    ///
    /// - Throws: `SchemaError.cannotDerive` naming the type, the reason and what to write by hand;
    ///   `.unknownHint` for a hint naming no decoded key; guide errors from hints.
    public static func derived(from type: any Decodable.Type) throws(SchemaError) -> OutputSchema {
        let context = DerivationContext(root: type)
        var schema = try context.derive(type, path: []).schema
        schema.title = DerivationContext.baseName(of: type)
        schema.definitions = context.definitions
        return schema
    }
}

/// State shared by the recording decoders of one derivation: the types being derived (to spot recursion),
/// definition names, and the definitions of recursive types.
///
/// A class because every nested decoder must update the same state; it lives only for one synchronous
/// `derived(from:)` call and never crosses a concurrency boundary.
final class DerivationContext {
    let root: ObjectIdentifier
    var inProgress: [ObjectIdentifier] = []
    var recursive: Set<ObjectIdentifier> = []
    var names: [ObjectIdentifier: String] = [:]
    var definitions: [SchemaDefinition] = []

    init(root: any Decodable.Type) { self.root = ObjectIdentifier(root) }

    static func baseName(of type: Any.Type) -> String {
        let raw = String(describing: type)
        return String(raw.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }

    func definitionName(for type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let n = names[id] { return n }
        let base = DerivationContext.baseName(of: type)
        var name = base, k = 2
        while names.values.contains(name) { name = "\(base)_\(k)"; k += 1 }
        names[id] = name
        return name
    }

    static func describe(_ path: [String]) -> String { path.isEmpty ? "the root" : path.joined(separator: ".") }

    /// The schema for `type` and, when one can be made, a placeholder value of it.
    func derive(_ type: any Decodable.Type, path: [String]) throws(SchemaError) -> (schema: OutputSchema, value: Any?) {
        var result = try deriveUndescribed(type, path: path)
        if let g = type as? any GuidedGenerable.Type, let d = g.schemaDescription {
            // A reference stays bare: the description is on its definition.
            if case .reference = result.schema.kind {} else { result.schema.description = d }
        }
        return result
    }

    private func deriveUndescribed(_ type: any Decodable.Type, path: [String]) throws(SchemaError) -> (schema: OutputSchema, value: Any?) {
        if let (schema, value) = DerivationLeaf.leaf(for: type) { return (schema, value) }
        if let e = type as? any SchemaEnumeration.Type {
            guard let values = e.derivationRawValues, !values.isEmpty else {
                throw .cannotDerive(
                    type: "\(type)", reason: "its raw values are not Strings or Ints, or it has no cases",
                    remedy: "Give it String raw values, or declare the schema by hand (GuidedGenerable.declaredSchema).")
            }
            let strings = values.compactMap(\.stringValue)
            let schema = strings.count == values.count ? OutputSchema.stringEnum(strings) : OutputSchema(.enumeration(values))
            return (schema, e.derivationPlaceholder)
        }
        if let o = type as? any DerivableOptional.Type {
            let inner = try derive(o.wrappedType, path: path)
            return (.nullable(inner.schema), o.nonePlaceholder)
        }
        if let a = type as? any DerivableArray.Type {
            let inner = try derive(a.elementType, path: path + ["[]"])
            return (.array(of: inner.schema), a.emptyPlaceholder)
        }
        if let d = type as? any DerivableDictionary.Type {
            guard d.keyType == String.self else {
                throw .cannotDerive(
                    type: "\(type)", reason: "at \(DerivationContext.describe(path)): dictionary keys must be String (JSON object keys)",
                    remedy: "Use [String: \(d.valueType)], or declare the schema by hand (GuidedGenerable.declaredSchema).")
            }
            let inner = try derive(d.valueType, path: path + ["[key]"])
            return (.dictionary(of: inner.schema), d.emptyPlaceholder)
        }
        if let g = type as? any GuidedGenerable.Type, let declared = try g.declaredSchema {
            // Still decode once, in a context of its own, to get a placeholder value for the enclosing type.
            let scratch = DerivationContext(root: type)
            let value = try? type.init(from: RecordingDecoder(box: RecordingBox(context: scratch, path: path), codingPath: []))
            return (try adopt(declared, of: type), value)
        }
        return try deriveByDecoding(type, path: path)
    }

    /// A hand-written nested schema: its definitions join the derivation's.
    private func adopt(_ declared: OutputSchema, of type: Any.Type) throws(SchemaError) -> OutputSchema {
        guard !declared.containsRootReference else {
            throw .cannotDerive(
                type: "\(type)", reason: "its declaredSchema refers to its own root (\"$ref\": \"#\"), which means another type once nested",
                remedy: "Put the recursive part in a named definition (defining(_:_:)) and reference it with .reference(name).")
        }
        for d in declared.definitions {
            if let existing = definitions.first(where: { $0.name == d.name }) {
                guard existing.schema == d.schema else { throw .duplicateDefinition(name: d.name) }
            } else {
                definitions.append(d)
            }
        }
        var schema = declared
        schema.definitions = []
        return schema
    }

    private func deriveByDecoding(_ type: any Decodable.Type, path: [String]) throws(SchemaError) -> (schema: OutputSchema, value: Any?) {
        let id = ObjectIdentifier(type)
        if inProgress.contains(id) || (recursive.contains(id) && id != root) {
            recursive.insert(id)
            return (OutputSchema(.reference(id == root ? .root : .definition(definitionName(for: type)))), nil)
        }
        inProgress.append(id)
        defer { inProgress.removeLast() }
        let recording = RecordingBox(context: self, path: path)
        let decoder = RecordingDecoder(box: recording, codingPath: [])
        let value: Any
        do {
            value = try type.init(from: decoder)
        } catch let e as SchemaError {
            throw e
        } catch {
            throw DerivationContext.explain(error, type: type, recording: recording, path: path)
        }
        var schema = try recording.schema(for: type)
        if let g = type as? any GuidedGenerable.Type {
            schema = try DerivationContext.applyHints(g.schemaHints, to: schema, of: type)
            if let d = g.schemaDescription { schema.description = d }
        }
        guard recursive.contains(id), id != root else { return (schema, value) }
        let name = definitionName(for: type)
        if !definitions.contains(where: { $0.name == name }) { definitions.append(SchemaDefinition(name, schema)) }
        return (OutputSchema(.reference(.definition(name))), value)
    }

    static func applyHints(_ hints: [PropertyHint], to schema: OutputSchema, of type: Any.Type) throws(SchemaError) -> OutputSchema {
        guard !hints.isEmpty else { return schema }
        guard case .object(var o) = schema.kind else {
            throw .unknownHint(property: hints[0].property, type: "\(type)", knownProperties: [])
        }
        for hint in hints {
            guard let i = o.properties.firstIndex(where: { $0.name == hint.property }) else {
                throw .unknownHint(property: hint.property, type: "\(type)", knownProperties: o.properties.map(\.name))
            }
            let path = JSONPointer.appending("/properties", hint.property)
            var s = try o.properties[i].schema.applying(hint.guides, at: path)
            if let d = hint.description { s.description = d }
            o.properties[i].schema = s
        }
        var result = schema
        result.kind = .object(o)
        return result
    }

    /// Turns an error thrown by a type's `init(from:)` into advice.
    static func explain(_ error: any Error, type: Any.Type, recording: RecordingBox, path: [String]) -> SchemaError {
        let at = DerivationContext.describe(path)
        if recording.isKeyedWithoutProperties, case DecodingError.typeMismatch = error {
            return .cannotDerive(
                type: "\(type)", reason: "at \(at): it decodes one key chosen among several (an enum with associated values?)",
                remedy: "Declare the schema by hand (GuidedGenerable.declaredSchema), e.g. .anyOf of one object per case.")
        }
        if recording.isSingleValue, case DecodingError.dataCorrupted = error {
            return .cannotDerive(
                type: "\(type)", reason: "at \(at): it rejected the placeholder value (\(error))",
                remedy: "If it is an enum with String or Int raw values, conform it to SchemaEnumeration; otherwise declare the schema by hand (GuidedGenerable.declaredSchema).")
        }
        return .cannotDerive(
            type: "\(type)", reason: "at \(at): its init(from:) threw \(error) when given placeholder values",
            remedy: "Declare the schema by hand (GuidedGenerable.declaredSchema) with OutputSchema.object { ... } or OutputSchema(jsonSchema:).")
    }
}

extension OutputSchema {
    var containsRootReference: Bool {
        if case .reference(.root) = kind { return true }
        return children.contains { $0.containsRootReference }
            || definitions.contains { $0.schema.containsRootReference }
    }
}
