import GuidedSchema

/// The JSON form of structural tags, XGrammar's: `{"type": "structural_tag", "format": {...}}` where each
/// format object has a `type` (`const_string`, `json_schema`, `grammar`, `regex`, `any_text`, `token`,
/// `sequence`, `or`, `optional`, `plus`, `star`, `repeat`, `tag`, `triggered_tags`,
/// `token_triggered_tags`, `tags_with_separator`, `any_tokens`) and the fields XGrammar gives it. The
/// older form `{"type": "structural_tag", "structures": [{"begin", "schema", "end"}], "triggers": [...]}`
/// is read too. One departure: free text is bounded by `max_bytes` (UTF-8 bytes), not `max_chars`.
extension StructuralTag {
    /// Reads a structural tag (the wrapper object, or a bare format object).
    public init(json: JSONValue) throws(StructuralTagError) {
        if json["type"]?.stringValue == "structural_tag" {
            if let format = json["format"] {
                self = try Self.read(format, path: "format")
                return
            }
            if let structures = json["structures"] {
                self = try Self.readLegacy(structures: structures, triggers: json["triggers"])
                return
            }
            throw .invalidFormat(path: "", "a structural_tag needs `format` (or `structures` and `triggers`)")
        }
        self = try Self.read(json, path: "format")
    }

    /// Reads a structural tag from JSON text.
    public init(jsonText: String) throws(StructuralTagError) {
        let value: JSONValue
        do { value = try JSONParser.parse(jsonText) } catch { throw .invalidFormat(path: "", error.description) }
        try self.init(json: value)
    }

    /// The JSON form, wrapped: `{"type": "structural_tag", "format": ...}`.
    public var json: JSONValue { ["type": "structural_tag", "format": formatJSON] }

    /// The JSON form of this format object.
    public var formatJSON: JSONValue {
        switch self {
        case .constString(let s): return ["type": "const_string", "value": .string(s)]
        case .jsonSchema(let schema): return ["type": "json_schema", "json_schema": schema]
        case .grammar(let g): return ["type": "grammar", "grammar": .string(g)]
        case .regex(let p): return ["type": "regex", "pattern": .string(p)]
        case .anyText(let a):
            var o: [(String, JSONValue)] = [("type", "any_text")]
            if !a.excludes.isEmpty { o.append(("excludes", .array(a.excludes.map { .string($0) }))) }
            if let n = a.maxTokens { o.append(("max_tokens", .number(JSONNumber(n)))) }
            if let n = a.maxBytes { o.append(("max_bytes", .number(JSONNumber(n)))) }
            return Self.object(o)
        case .token(let r): return ["type": "token", "token": Self.tokenJSON(r)]
        case .sequence(let parts): return ["type": "sequence", "elements": .array(parts.map(\.formatJSON))]
        case .or(let parts): return ["type": "or", "elements": .array(parts.map(\.formatJSON))]
        case .optional(let x): return ["type": "optional", "content": x.formatJSON]
        case .plus(let x): return ["type": "plus", "content": x.formatJSON]
        case .star(let x): return ["type": "star", "content": x.formatJSON]
        case .repeat(let x, let lo, let hi):
            return ["type": "repeat", "min": .number(JSONNumber(lo)), "max": .number(JSONNumber(hi ?? -1)), "content": x.formatJSON]
        case .tag(let t): return Self.tagJSON(t)
        case .triggeredTags(let tt):
            let tokenLevel = tt.triggers.allSatisfy { if case .token = $0 { return true } else { return false } } && !tt.triggers.isEmpty
            var o: [(String, JSONValue)] = [("type", tokenLevel ? "token_triggered_tags" : "triggered_tags")]
            if tokenLevel {
                o.append(("trigger_tokens", .array(tt.triggers.map { d -> JSONValue in
                    if case .token(let r) = d { return Self.tokenJSON(r) }
                    return Self.delimiterJSON(d)
                })))
            } else {
                o.append(("triggers", .array(tt.triggers.map(Self.delimiterJSON))))
            }
            o.append(("tags", .array(tt.tags.map(Self.tagJSON))))
            o.append(("at_least_one", .bool(tt.atLeastOne)))
            o.append(("stop_after_first", .bool(tt.stopAfterFirst)))
            if !tt.excludes.isEmpty { o.append(("excludes", .array(tt.excludes.map { .string($0) }))) }
            return Self.object(o)
        case .tagsWithSeparator(let ts):
            return ["type": "tags_with_separator", "tags": .array(ts.tags.map(Self.tagJSON)), "separator": .string(ts.separator),
                    "at_least_one": .bool(ts.atLeastOne), "stop_after_first": .bool(ts.stopAfterFirst)]
        }
    }

    private static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs.map { (key: $0.0, value: $0.1) }))
    }

    private static func tokenJSON(_ r: TokenReference) -> JSONValue {
        switch r.target {
        case .id(let id): return .number(JSONNumber(id))
        case .text(let t): return .string(t)
        }
    }

    private static func delimiterJSON(_ d: Delimiter) -> JSONValue {
        switch d {
        case .text(let s): return .string(s)
        case .token(let r): return ["type": "token", "token": tokenJSON(r)]
        }
    }

    private static func tagJSON(_ t: Tag) -> JSONValue {
        let end: JSONValue = t.end.count == 1 ? delimiterJSON(t.end[0]) : .array(t.end.map(delimiterJSON))
        return ["type": "tag", "begin": delimiterJSON(t.begin), "content": t.content.formatJSON, "end": end]
    }

    // MARK: Reading

    private static func read(_ v: JSONValue, path: String) throws(StructuralTagError) -> StructuralTag {
        guard case .object = v else { throw .invalidFormat(path: path, "a format must be an object") }
        guard let type = v["type"]?.stringValue else { throw .invalidFormat(path: path, "a format needs a string `type`") }
        switch type {
        case "const_string": return .constString(try string(v, "value", path))
        case "json_schema":
            guard let schema = v["json_schema"] else { throw .invalidFormat(path: path, "json_schema needs `json_schema`") }
            if let style = v["style"]?.stringValue, style != "json" {
                throw .invalidFormat(path: path, "json_schema style `\(style)` is not supported (only `json`)")
            }
            return .jsonSchema(schema)
        case "grammar": return .grammar(try string(v, "grammar", path))
        case "regex": return .regex(try string(v, "pattern", path))
        case "any_text":
            if v["max_chars"] != nil {
                throw .invalidFormat(path: path, "any_text `max_chars` is not supported: bound the text with `max_bytes` or `max_tokens`")
            }
            return .anyText(AnyText(excludes: try strings(v, "excludes", path) ?? [], maxTokens: try int(v, "max_tokens", path),
                                    maxBytes: try int(v, "max_bytes", path)))
        case "any_tokens":
            // Token-level free text: any tokens but the excluded ones (which the grammar excludes everywhere).
            if let excluded = v["exclude_tokens"], excluded.arrayValue?.isEmpty == false {
                throw .invalidFormat(path: path, "any_tokens `exclude_tokens` is not supported here: use the tag's end token")
            }
            return .anyText(AnyText(maxTokens: try int(v, "max_tokens", path)))
        case "token":
            guard let t = v["token"] else { throw .invalidFormat(path: path, "token needs `token`") }
            return .token(try token(t, path: "\(path).token"))
        case "sequence": return .sequence(try elements(v, path))
        case "or": return .or(try elements(v, path))
        case "optional": return .optional(try content(v, path))
        case "plus": return .plus(try content(v, path))
        case "star": return .star(try content(v, path))
        case "repeat":
            guard let lo = try int(v, "min", path) else { throw .invalidFormat(path: path, "repeat needs `min`") }
            guard let hi = try int(v, "max", path) else { throw .invalidFormat(path: path, "repeat needs `max` (-1: unbounded)") }
            return .repeat(try content(v, path), min: lo, max: hi < 0 ? nil : hi)
        case "tag": return .tag(try tag(v, path: path))
        case "triggered_tags", "token_triggered_tags":
            let key = type == "triggered_tags" ? "triggers" : "trigger_tokens"
            guard let list = v[key]?.arrayValue else { throw .invalidFormat(path: path, "\(type) needs `\(key)`") }
            var triggers: [Delimiter] = []
            for (i, t) in list.enumerated() {
                triggers.append(type == "triggered_tags" ? try delimiter(t, path: "\(path).\(key)[\(i)]")
                                                         : .token(try token(t, path: "\(path).\(key)[\(i)]")))
            }
            return .triggeredTags(TriggeredTags(triggers: triggers, tags: try tags(v, path), atLeastOne: try bool(v, "at_least_one", path),
                                                stopAfterFirst: try bool(v, "stop_after_first", path),
                                                excludes: try strings(v, "excludes", path) ?? []))
        case "tags_with_separator":
            return .tagsWithSeparator(TagsWithSeparator(tags: try tags(v, path), separator: try string(v, "separator", path),
                                                        atLeastOne: try bool(v, "at_least_one", path),
                                                        stopAfterFirst: try bool(v, "stop_after_first", path)))
        default:
            throw .invalidFormat(path: path, "unknown format type `\(type)`")
        }
    }

    private static func readLegacy(structures: JSONValue, triggers: JSONValue?) throws(StructuralTagError) -> StructuralTag {
        guard let list = structures.arrayValue else { throw .invalidFormat(path: "structures", "must be an array") }
        var tags: [Tag] = []
        for (i, s) in list.enumerated() {
            let p = "structures[\(i)]"
            guard let schema = s["schema"] else { throw .invalidFormat(path: p, "a structure needs `schema`") }
            tags.append(Tag(begin: .text(try string(s, "begin", p)), content: .jsonSchema(schema), end: .text(try string(s, "end", p))))
        }
        guard let t = triggers?.arrayValue else { throw .invalidFormat(path: "triggers", "must be an array of strings") }
        var list2: [Delimiter] = []
        for (i, x) in t.enumerated() {
            guard let s = x.stringValue else { throw .invalidFormat(path: "triggers[\(i)]", "must be a string") }
            list2.append(.text(s))
        }
        return .triggeredTags(TriggeredTags(triggers: list2, tags: tags))
    }

    private static func tag(_ v: JSONValue, path: String) throws(StructuralTagError) -> Tag {
        guard v["type"] == nil || v["type"]?.stringValue == "tag" else { throw .invalidFormat(path: path, "expected a tag") }
        guard let b = v["begin"] else { throw .invalidFormat(path: path, "a tag needs `begin`") }
        guard let c = v["content"] else { throw .invalidFormat(path: path, "a tag needs `content`") }
        guard let e = v["end"] else { throw .invalidFormat(path: path, "a tag needs `end`") }
        var ends: [Delimiter] = []
        if let list = e.arrayValue {
            for (i, x) in list.enumerated() { ends.append(try delimiter(x, path: "\(path).end[\(i)]")) }
        } else {
            ends = [try delimiter(e, path: "\(path).end")]
        }
        return Tag(begin: try delimiter(b, path: "\(path).begin"), content: try read(c, path: "\(path).content"), ends: ends)
    }

    private static func delimiter(_ v: JSONValue, path: String) throws(StructuralTagError) -> Delimiter {
        if let s = v.stringValue { return .text(s) }
        if v["type"]?.stringValue == "token", let t = v["token"] { return .token(try token(t, path: "\(path).token")) }
        throw .invalidFormat(path: path, "expected a string or a token object")
    }

    private static func token(_ v: JSONValue, path: String) throws(StructuralTagError) -> TokenReference {
        if let s = v.stringValue { return .text(s) }
        if let n = v.numberValue?.intValue { return .id(n) }
        throw .invalidFormat(path: path, "a token is an id or a string")
    }

    private static func string(_ v: JSONValue, _ key: String, _ path: String) throws(StructuralTagError) -> String {
        guard let s = v[key]?.stringValue else { throw .invalidFormat(path: path, "`\(key)` must be a string") }
        return s
    }

    private static func strings(_ v: JSONValue, _ key: String, _ path: String) throws(StructuralTagError) -> [String]? {
        guard let x = v[key] else { return nil }
        guard let list = x.arrayValue else { throw .invalidFormat(path: path, "`\(key)` must be an array of strings") }
        var out: [String] = []
        for item in list {
            guard let s = item.stringValue else { throw .invalidFormat(path: path, "`\(key)` must be an array of strings") }
            out.append(s)
        }
        return out
    }

    private static func int(_ v: JSONValue, _ key: String, _ path: String) throws(StructuralTagError) -> Int? {
        guard let x = v[key], !x.isNull else { return nil }
        guard let n = x.numberValue?.intValue else { throw .invalidFormat(path: path, "`\(key)` must be an integer") }
        return n
    }

    private static func bool(_ v: JSONValue, _ key: String, _ path: String) throws(StructuralTagError) -> Bool {
        guard let x = v[key] else { return false }
        guard let b = x.boolValue else { throw .invalidFormat(path: path, "`\(key)` must be true or false") }
        return b
    }

    private static func content(_ v: JSONValue, _ path: String) throws(StructuralTagError) -> StructuralTag {
        guard let c = v["content"] else { throw .invalidFormat(path: path, "needs `content`") }
        return try read(c, path: "\(path).content")
    }

    private static func elements(_ v: JSONValue, _ path: String) throws(StructuralTagError) -> [StructuralTag] {
        guard let list = v["elements"]?.arrayValue else { throw .invalidFormat(path: path, "needs an array `elements`") }
        var out: [StructuralTag] = []
        for (i, e) in list.enumerated() { out.append(try read(e, path: "\(path).elements[\(i)]")) }
        return out
    }

    private static func tags(_ v: JSONValue, _ path: String) throws(StructuralTagError) -> [Tag] {
        guard let list = v["tags"]?.arrayValue else { throw .invalidFormat(path: path, "needs an array `tags`") }
        var out: [Tag] = []
        for (i, t) in list.enumerated() { out.append(try tag(t, path: "\(path).tags[\(i)]")) }
        return out
    }
}
