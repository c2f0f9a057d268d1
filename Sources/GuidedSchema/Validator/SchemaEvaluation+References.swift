extension SchemaEvaluation {
    /// `$ref`, `$recursiveRef` (2019-09) and `$dynamicRef` (2020-12).
    func evaluateReferences(_ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        if let ref = c["$ref"]?.stringValue {
            let uri = URIReference.resolve(ref, against: c.node.base)
            follow(registry.lookup(uri), keyword: "$ref", uri: uri, &c, &errors)
        }
        if c.draft == .draft2019_09, let ref = c["$recursiveRef"]?.stringValue {
            let uri = URIReference.resolve(ref, against: c.node.base)
            var target = registry.lookup(uri)
            if let t = target, t.entered().value["$recursiveAnchor"]?.boolValue == true {
                // Walk outwards through the dynamic scope while the resources there opt in.
                for base in dynamicScope.reversed() {
                    guard let outer = registry.resources[base],
                        outer.entered().value["$recursiveAnchor"]?.boolValue == true
                    else { break }
                    target = outer
                }
            }
            follow(target, keyword: "$recursiveRef", uri: uri, &c, &errors)
        }
        if c.draft >= .draft2020_12, let ref = c["$dynamicRef"]?.stringValue {
            let uri = URIReference.resolve(ref, against: c.node.base)
            var target = registry.lookup(uri)
            let fragment = URIReference.split(uri).fragment.map(PercentDecoding.decode)
            if let t = target, let name = fragment, !name.isEmpty, !name.hasPrefix("/"),
                t.entered().value["$dynamicAnchor"]?.stringValue == name
            {
                // The outermost resource in the dynamic scope that declares the same dynamic anchor wins.
                for base in dynamicScope where registry.dynamicAnchors[base]?.contains(name) == true {
                    if let found = registry.anchors[base + "#" + name] {
                        target = found
                        break
                    }
                }
            }
            follow(target, keyword: "$dynamicRef", uri: uri, &c, &errors)
        }
    }

    private func follow(
        _ target: SchemaNode?, keyword: String, uri: String, _ c: inout KeywordContext,
        _ errors: inout [JSONSchemaViolation]
    ) {
        guard let target else {
            c.fail(keyword, "cannot resolve the reference \(uri) (no such schema is registered)", &errors)
            uncheckable.append(errors.last!)
            return
        }
        let path = c.schemaPath + "/" + keyword
        if let evaluated = evaluate(target, c.instance, c.instancePath, path, &errors) {
            c.evaluated.merge(evaluated)
        } else {
            c.valid = false
        }
    }
}
