import GuidedSchema

/// One schema location of the document: its value, JSON pointer and base URI.
struct SchemaNode: Sendable {
    let value: JSONValue
    let pointer: String
    let baseURI: SchemaURI
    /// Made by walking the document to a schema position (not inside a keyword's map or list, not a
    /// made-up location): a walk to a pointer below it may start here.
    var atSchemaPosition = false
}

/// The schema document with every schema location numbered, and the `$id` / `$anchor` registry that
/// `$ref` resolves through. Only references inside the document resolve; remote ones are refused.
struct SchemaDocument: Sendable {
    let draft: JSONSchemaDraft
    private(set) var nodes: [SchemaNode] = []
    private var nodeByPointer: [String: Int] = [:]
    /// The nodes of `nodeByPointer` that sit at a schema position (not inside a keyword's map or list).
    private var schemaNodeByPointer: [String: Int] = [:]
    /// Absolute URI (no fragment) of each embedded resource → pointer of its root.
    private var resources: [String: String] = [:]
    /// `uri#anchor` → pointer.
    private var anchors: [String: String] = [:]
    /// Each resolved `$ref`: by the location holding it, the reference and its target.
    private var resolvedReferences: [Int: (String, Int)] = [:]
    let root: JSONValue
    /// Per `unevaluated*` keyword (`UnevaluatedRewrite.key`): nil when `UnevaluatedRewrite` replaced it
    /// by parts the lowering enforces, else why it could not. Keywords not listed are refused.
    var unevaluatedOutcomes: [String: JSONSchemaCompileError?] = [:]

    static let defaultBase = SchemaURI(parsing: "https://guided-decoding.invalid/root.json")

    init(root: JSONValue, defaultDraft: JSONSchemaDraft) throws(JSONSchemaCompileError) {
        self.root = root
        var draft = defaultDraft
        if case .object(let o) = root, let s = o["$schema"] {
            guard case .string(let uri) = s else {
                throw JSONSchemaCompileError(.invalidSchema, keyword: "$schema", pointer: "", detail: "must be a string")
            }
            if uri == "http://json-schema.org/schema#" || uri == "https://json-schema.org/schema" {
                draft = defaultDraft
            } else if let d = JSONSchemaDraft(schemaURI: uri) {
                draft = d
            } else {
                throw JSONSchemaCompileError(.unsupported, keyword: "$schema", pointer: "", detail: "unknown meta-schema '\(uri)'")
            }
        }
        self.draft = draft
        var path: [String] = []
        try register(root, path: &path, base: SchemaDocument.defaultBase, isRoot: true)
        _ = try node(at: "")
    }

    subscript(id: Int) -> SchemaNode { nodes[id] }

    /// Made-up locations `{"not": <location>}`, by negated location, and the site (keyword, pointer) a
    /// refusal of them names: the `not`/`if` whose negation needed them.
    private var negations: [Int: Int] = [:]
    private(set) var negationSites: [Int: (keyword: String, pointer: String)] = [:]

    /// A location whose schema is `{"not": <location id>}`, for constraints such as "member `p`'s value
    /// fails its schema". Its pointer ends in `/~n`, which no real pointer can (`~` escapes only `0`, `1`),
    /// and its `not` child is registered as `id` itself.
    mutating func negation(of id: Int, site: (keyword: String, pointer: String)) -> Int {
        if let n = negations[id] { return n }
        let pointer = nodes[id].pointer + "/~n"
        nodes.append(SchemaNode(value: .object(JSONObject([(key: "not", value: nodes[id].value)])), pointer: pointer, baseURI: nodes[id].baseURI))
        let n = nodes.count - 1
        nodeByPointer[pointer] = n
        nodeByPointer[pointer + "/not"] = id
        negations[id] = n
        negationSites[id] = site
        return n
    }

    /// Made-up locations `{"type": "array", <keyword>: {"not": <location>}}`, by location and keyword.
    private var arrayNegations: [String: Int] = [:]

    /// A location whose schema is "an array with some item failing `id`" (`keyword` "contains") or "an
    /// array whose every item fails `id`" (`keyword` "items"): the negations of `items: id` and of
    /// `contains: id`. Its pointer ends in `/~c` or `/~i` (no real pointer can), and its keyword's child
    /// is `negation(of: id)`.
    mutating func arrayNegation(of id: Int, as keyword: String, site: (keyword: String, pointer: String)) -> Int {
        let key = "\(id) \(keyword)"
        if let n = arrayNegations[key] { return n }
        let inner = negation(of: id, site: site)
        let pointer = nodes[id].pointer + (keyword == "contains" ? "/~c" : "/~i")
        let value = JSONValue.object(JSONObject([(key: "type", value: .string("array")), (key: keyword, value: nodes[inner].value)]))
        nodes.append(SchemaNode(value: value, pointer: pointer, baseURI: nodes[id].baseURI))
        let n = nodes.count - 1
        nodeByPointer[pointer] = n
        nodeByPointer[pointer + "/" + keyword] = inner
        arrayNegations[key] = n
        return n
    }

    /// Made-up locations `true` and `false`, by value.
    private var constants: [Bool: Int] = [:]

    /// A location whose schema is the boolean `value` (pointer `/~t` or `/~f`, which no real pointer can
    /// be), for object parts the lowering makes up (`SchemaLowering+SomeMember`).
    mutating func constant(_ value: Bool) -> Int {
        if let n = constants[value] { return n }
        let pointer = value ? "/~t" : "/~f"
        nodes.append(SchemaNode(value: .bool(value), pointer: pointer, baseURI: nodes[0].baseURI))
        let n = nodes.count - 1
        nodeByPointer[pointer] = n
        constants[value] = n
        return n
    }

    /// Whether `pointer` is a made-up "some item fails" location (`arrayNegation(of:as: "contains")`),
    /// whose `contains` holds in every draft.
    static func isMadeUpContains(_ pointer: String) -> Bool { pointer.hasSuffix("/~c") }

    /// Records the site a refusal of negated location `id` names, unless one is known.
    mutating func noteNegationSite(of id: Int, _ site: (keyword: String, pointer: String)) {
        if negationSites[id] == nil { negationSites[id] = site }
    }

    var idKeyword: String { draft == .draft4 ? "id" : "$id" }

    /// Walks schema positions, recording resources and anchors. `path` holds the escaped tokens of the
    /// position; its pointer string is joined only where an `$id` or anchor needs it (most schemas have
    /// none, and building a string per position was most of this walk).
    private mutating func register(_ value: JSONValue, path: inout [String], base: SchemaURI, isRoot: Bool) throws(JSONSchemaCompileError) {
        guard case .object(let o) = value else { return }
        var base = base
        func pointer() -> String { path.isEmpty ? "" : "/" + path.joined(separator: "/") }
        // In drafts 4-7 a `$ref` makes its siblings (including `$id`) inert.
        let refHidesSiblings = draft.level <= JSONSchemaDraft.draft7.level && o["$ref"] != nil
        if !refHidesSiblings, case .string(let id)? = o[idKeyword] {
            if draft.level <= JSONSchemaDraft.draft7.level, id.hasPrefix("#") {
                anchors[base.withoutFragment + id] = pointer()
            } else {
                let resolved = base.resolving(id)
                base = resolved.droppingFragment
                resources[base.withoutFragment] = pointer()
                if let f = resolved.fragment, !f.isEmpty, draft.level <= JSONSchemaDraft.draft7.level {
                    anchors[base.withoutFragment + "#" + f] = pointer()
                }
            }
        }
        if isRoot { resources[base.withoutFragment] = pointer(); resources[SchemaDocument.defaultBase.withoutFragment] = pointer() }
        if draft.level >= JSONSchemaDraft.draft2019_09.level, !refHidesSiblings {
            for key in ["$anchor", "$dynamicAnchor"] {
                if case .string(let a)? = o[key] { anchors[base.withoutFragment + "#" + a] = pointer() }
            }
        }
        if refHidesSiblings { return }
        if draft.level >= JSONSchemaDraft.draft2019_09.level, o["unevaluatedProperties"] != nil || o["unevaluatedItems"] != nil {
            unevaluatedHolders.append(pointer())
        }
        try SchemaKeywords.forEachSubschema(in: o, draft: draft) { (key, member, child) throws(JSONSchemaCompileError) in
            path.append(SchemaDocument.escape(key))
            if let member { path.append(member) }
            defer { path.removeLast(member == nil ? 1 : 2) }
            try register(child, path: &path, base: base, isRoot: false)
        }
    }

    /// The schema positions holding `unevaluatedProperties` or `unevaluatedItems` (drafts 2019-09 and
    /// later), in document order: found by the walk that registers identifiers, so that the rewrite of
    /// those keywords (`UnevaluatedRewrite`) need not walk the document again, building a pointer per
    /// position, when there are none (most schemas).
    private(set) var unevaluatedHolders: [String] = []

    /// Child nodes by parent and path below it ("/allOf/0"): every analysis that meets a location asks
    /// for the same children, and each time built and hashed the child's whole pointer.
    private var childByPath: [ChildPath: Int] = [:]
    private struct ChildPath: Hashable {
        var parent: Int
        var path: String
    }

    /// The node at `path` below node `parent` (`node(at:)` of the parent's pointer and `path`).
    mutating func child(_ parent: Int, _ path: String) throws(JSONSchemaCompileError) -> Int {
        let key = ChildPath(parent: parent, path: path)
        if let id = childByPath[key] { return id }
        let pointer = nodes[parent].pointer + path
        let id: Int
        if let known = nodeByPointer[pointer] {
            id = known
        } else if nodes[parent].atSchemaPosition {
            // From the parent itself, where `node(at:)` would find it again by looking up each prefix
            // of the pointer (a Kubernetes schema's pointers run to hundreds of bytes, each hashed).
            id = try walk(to: pointer, from: nodes[parent].value, base: nodes[parent].baseURI, rest: Substring(path))
        } else {
            id = try node(at: pointer)
        }
        childByPath[key] = id
        return id
    }

    /// The node at a JSON pointer of the document (created on first use).
    mutating func node(at pointer: String) throws(JSONSchemaCompileError) -> Int {
        if let id = nodeByPointer[pointer] { return id }
        // Walk from the nearest known schema node above (most pointers asked for are a known schema's
        // child: walking from the root each time made lowering quadratic in the depth), else from the
        // root, tracking the base URI through schema positions.
        if let (id, suffix) = nearestSchemaAbove(pointer) {
            return try walk(to: pointer, from: nodes[id].value, base: nodes[id].baseURI, rest: suffix)
        }
        return try walk(to: pointer, from: root, base: baseAfter(root, base: SchemaDocument.defaultBase, isSchema: true), rest: Substring(pointer))
    }

    /// Makes the node at `pointer`, walking the tokens of `rest` from `value`, a schema position whose
    /// base URI is `base` (the root, or a node made at a schema position above).
    private mutating func walk(to pointer: String, from value: JSONValue, base: SchemaURI, rest: Substring) throws(JSONSchemaCompileError) -> Int {
        var value = value
        var base = base
        var isSchema = true
        var expect: SchemaKeywords.ChildKind? = nil
        for token in SchemaDocument.tokens(of: String(rest)) {
            var next: JSONValue? = nil
            var nextIsSchema = false
            switch value {
            case .object(let o):
                next = o[token]
                if let e = expect, e == .schemaMap { nextIsSchema = true; expect = nil }
                else if isSchema {
                    let k = SchemaKeywords.childKind(token, draft: draft)
                    switch k {
                    case .schema: nextIsSchema = true
                    case .schemaMap, .schemaArray: expect = k
                    case .schemaOrArray:
                        if case .array? = next { expect = .schemaArray } else { nextIsSchema = true }
                    case .none: break
                    }
                    if k != .schemaMap, k != .schemaArray, k != .schemaOrArray { expect = nil }
                } else { expect = nil }
            case .array(let a):
                if let i = Int(token), i >= 0, i < a.count { next = a[i] }
                if let e = expect, e == .schemaArray { nextIsSchema = true }
                expect = nil
            default: break
            }
            guard let n = next else {
                throw JSONSchemaCompileError(.unresolvableReference, keyword: "$ref", pointer: pointer, detail: "no value at this JSON pointer")
            }
            value = n
            isSchema = nextIsSchema
            if isSchema { base = baseAfter(value, base: base, isSchema: true) }
        }
        let id = nodes.count
        nodes.append(SchemaNode(value: value, pointer: pointer, baseURI: base, atSchemaPosition: isSchema && expect == nil))
        nodeByPointer[pointer] = id
        if isSchema && expect == nil { schemaNodeByPointer[pointer] = id }
        return id
    }

    /// The deepest node made at a schema position (so a walk can resume there as at the root) whose
    /// pointer is a proper prefix of `pointer` ending at a token boundary, and the rest of the pointer.
    private func nearestSchemaAbove(_ pointer: String) -> (Int, Substring)? {
        var end = pointer.utf8.endIndex
        while let slash = pointer.utf8[..<end].lastIndex(of: UInt8(ascii: "/")) {
            if let id = schemaNodeByPointer[String(pointer[..<slash])] { return (id, pointer[slash...]) }
            end = slash
        }
        return nil
    }

    func baseAfter(_ value: JSONValue, base: SchemaURI, isSchema: Bool) -> SchemaURI {
        guard isSchema, case .object(let o) = value else { return base }
        if draft.level <= JSONSchemaDraft.draft7.level, o["$ref"] != nil { return base }
        if case .string(let id)? = o[idKeyword], !(draft.level <= JSONSchemaDraft.draft7.level && id.hasPrefix("#")) {
            return base.resolving(id).droppingFragment
        }
        return base
    }

    /// Resolves a `$ref` written in node `from`.
    mutating func resolve(_ ref: String, from: Int) throws(JSONSchemaCompileError) -> Int {
        // Lowering resolves each reference once per conjunction it meets it in: remembered per location.
        if let (r, target) = resolvedReferences[from], r == ref { return target }
        let target = try resolveUncached(ref, from: from)
        resolvedReferences[from] = (ref, target)
        return target
    }

    private mutating func resolveUncached(_ ref: String, from: Int) throws(JSONSchemaCompileError) -> Int {
        try resolve(ref, base: nodes[from].baseURI, at: nodes[from].pointer)
    }

    /// Resolves `ref` written at `pointer`, whose base URI is `base`; a refusal names `pointer`.
    mutating func resolve(_ ref: String, base: SchemaURI, at pointer: String) throws(JSONSchemaCompileError) -> Int {
        let source = (baseURI: base, pointer: pointer)
        let target = source.baseURI.resolving(ref)
        let fragment = target.fragment ?? ""
        let resource = target.withoutFragment
        guard let resourcePointer = resources[resource] else {
            throw JSONSchemaCompileError(.unresolvableReference, keyword: "$ref", pointer: source.pointer,
                                         detail: "'\(ref)' is outside this document (remote references are not fetched)")
        }
        let decoded = SchemaURI.percentDecode(fragment)
        if decoded.isEmpty { return try node(at: resourcePointer) }
        if decoded.hasPrefix("/") {
            do { return try node(at: resourcePointer + decoded) } catch {
                throw JSONSchemaCompileError(.unresolvableReference, keyword: "$ref", pointer: source.pointer, detail: "'\(ref)' points to nothing")
            }
        }
        guard let p = anchors[resource + "#" + decoded] else {
            throw JSONSchemaCompileError(.unresolvableReference, keyword: "$ref", pointer: source.pointer, detail: "no anchor for '\(ref)'")
        }
        return try node(at: p)
    }

    static func escape(_ token: String) -> String {
        // Nearly every name needs no escape: a byte scan, not two Foundation replacements per name.
        guard token.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    static func tokens(of pointer: String) -> [String] {
        // Split on the "/" byte (splitting the String itself would walk grapheme clusters); what comes
        // before the first "/" is not a token.
        let u = pointer.utf8
        guard let firstSlash = u.firstIndex(of: UInt8(ascii: "/")) else { return [] }
        var out: [String] = []
        var start = u.index(after: firstSlash)
        while true {
            let end = u[start...].firstIndex(of: UInt8(ascii: "/")) ?? u.endIndex
            let token = String(pointer[start..<end])
            // Most tokens have no escapes; this check keeps the common case off the replacing path.
            if token.utf8.contains(UInt8(ascii: "~")) {
                out.append(token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~"))
            } else {
                out.append(token)
            }
            if end == u.endIndex { return out }
            start = u.index(after: end)
        }
    }
}

extension String {
    /// Plain substring replacement (Foundation-free).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        // A byte scan first: most strings hold no occurrence, and this avoids Foundation's slow search.
        guard let first = target.utf8.first, self.utf8.contains(first), self.contains(target) else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[rest.startIndex..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        out += rest
        return out
    }
}

/// A URI split per RFC 3986, with reference resolution (section 5.2) — enough for `$id` and `$ref`.
struct SchemaURI: Sendable, Hashable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(parsing s: String) {
        var rest = Substring(s)
        if let h = rest.firstIndex(of: "#") { fragment = String(rest[rest.index(after: h)...]); rest = rest[..<h] } else { fragment = nil }
        if let q = rest.firstIndex(of: "?") { query = String(rest[rest.index(after: q)...]); rest = rest[..<q] } else { query = nil }
        if let c = rest.firstIndex(of: ":"), !rest[..<c].isEmpty,
           rest[..<c].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
           rest.first!.isLetter {
            scheme = String(rest[..<c]); rest = rest[rest.index(after: c)...]
        } else { scheme = nil }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end]); rest = rest[end...]
        } else { authority = nil }
        path = String(rest)
    }

    var withoutFragment: String {
        var s = ""
        if let sc = scheme { s += sc + ":" }
        if let a = authority { s += "//" + a }
        s += path
        if let q = query { s += "?" + q }
        return s
    }

    var droppingFragment: SchemaURI { var u = self; u.fragment = nil; return u }

    func resolving(_ reference: String) -> SchemaURI {
        let r = SchemaURI(parsing: reference)
        var t = r
        if r.scheme != nil {
            t.path = SchemaURI.removeDotSegments(r.path)
            return t
        }
        t.scheme = scheme
        if r.authority != nil {
            t.path = SchemaURI.removeDotSegments(r.path)
            return t
        }
        t.authority = authority
        if r.path.isEmpty {
            t.path = path
            t.query = r.query ?? query
        } else if r.path.hasPrefix("/") {
            t.path = SchemaURI.removeDotSegments(r.path)
        } else {
            let merged: String
            if authority != nil, path.isEmpty { merged = "/" + r.path }
            else if let slash = path.lastIndex(of: "/") { merged = String(path[...slash]) + r.path }
            else { merged = r.path }
            t.path = SchemaURI.removeDotSegments(merged)
        }
        return t
    }

    static func removeDotSegments(_ p: String) -> String {
        guard p.utf8.contains(0x2E) else { return p }
        var out: [Substring] = []
        let parts = p.split(separator: "/", omittingEmptySubsequences: false)
        for (i, seg) in parts.enumerated() {
            if seg == "." { if i == parts.count - 1 { out.append("") }; continue }
            if seg == ".." {
                if out.count > 1 { out.removeLast() }
                if i == parts.count - 1 { out.append("") }
                continue
            }
            out.append(seg)
        }
        return out.joined(separator: "/")
    }

    static func percentDecode(_ s: String) -> String {
        guard s.utf8.contains(0x25) else { return s }  // (a byte scan: `String.contains` went through Foundation)
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        func hex(_ c: UInt8) -> UInt8? {
            switch c { case 48...57: return c - 48; case 65...70: return c - 55; case 97...102: return c - 87; default: return nil }
        }
        while i < u.count {
            if u[i] == 0x25, i + 2 < u.count, let h = hex(u[i + 1]), let l = hex(u[i + 2]) {
                bytes.append(h << 4 | l); i += 3
            } else { bytes.append(u[i]); i += 1 }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
