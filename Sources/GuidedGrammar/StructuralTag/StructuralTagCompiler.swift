import GuidedSchema

/// Compiles a `StructuralTag` into a `Grammar`.
///
/// Each format is lowered followed by what comes after it (a continuation), which is how free text
/// knows where it stops: text that is a tag's content, or the last part of it, stops at the first of
/// the tag's ends (the end is not text), and text with triggers stops at the first trigger. Text in
/// any other place may stop anywhere and is followed by what comes next.
public enum StructuralTagCompiler {
    /// - Parameter schemaOptions: how JSON Schema content is compiled (whitespace, member order).
    public static func compile(_ tag: StructuralTag,
                               schemaOptions: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) throws(StructuralTagError) -> Grammar {
        var lowering = StructuralTagLowering(options: schemaOptions)
        let root = try lowering.lower(tag, then: .empty, end: nil, path: "format")
        lowering.grammar.define(lowering.grammar.start, as: root)
        return lowering.grammar
    }
}

/// The state of one compile: the grammar being built and a counter for rule names.
struct StructuralTagLowering {
    /// Where free text in tail position of a tag's content stops: the tag's ends, then `after`.
    struct TagEnd {
        var delimiters: [StructuralTag.Delimiter]
        var after: GrammarExpr
    }

    var grammar = Grammar(startName: "structural_tag")
    let options: JSONSchemaCompileOptions
    var names = 0
    var inBudget = false

    init(options: JSONSchemaCompileOptions) { self.options = options }

    mutating func name(_ kind: String) -> String {
        names += 1
        return "\(kind)#\(names)"
    }

    /// `e` as something cheap to refer to several times: itself when small, else a rule.
    mutating func shareable(_ e: GrammarExpr, _ kind: String) -> GrammarExpr {
        switch e {
        case .rule, .empty, .nothing, .token: return e
        case .bytes(let b) where b.count <= 16: return e
        default: return .rule(grammar.addRule(name: name(kind), body: e))
        }
    }

    static func seq(_ parts: [GrammarExpr]) -> GrammarExpr {
        let kept = parts.filter { if case .empty = $0 { return false } else { return true } }
        if kept.isEmpty { return .empty }
        return kept.count == 1 ? kept[0] : .sequence(kept)
    }

    static func delimiter(_ d: StructuralTag.Delimiter) -> GrammarExpr {
        switch d {
        case .text(let s): return .literal(s)
        case .token(let r): return .token(r)
        }
    }

    /// `t` followed by `k`. `end`: `t` is in tail position of a tag's content with these ends.
    mutating func lower(_ t: StructuralTag, then k: GrammarExpr, end: TagEnd?, path: String) throws(StructuralTagError) -> GrammarExpr {
        switch t {
        case .constString(let s):
            return Self.seq([.literal(s), k])
        case .token(let r):
            return Self.seq([.token(r), k])
        case .jsonSchema(let schema):
            let g: Grammar
            do { g = try JSONSchemaCompiler.compile(schema, options: options) } catch { throw .schema(path: path, error) }
            return Self.seq([.rule(grammar.embed(g, prefix: name("json") + ".")), k])
        case .grammar(let text):
            let g: Grammar
            do { g = try Grammar(gbnf: text) } catch { throw .grammar(path: path, error) }
            return Self.seq([.rule(grammar.embed(g, prefix: name("gbnf") + ".")), k])
        case .regex(let pattern):
            let g: Grammar
            do { g = try Grammar(segmentRegex: pattern) } catch { throw .regex(path: path, error) }
            return Self.seq([.rule(grammar.embed(g, prefix: name("regex") + ".")), k])
        case .anyText(let a):
            return try lowerText(a, then: k, end: end, path: path)
        case .sequence(let parts):
            var next = k
            for (i, p) in parts.enumerated().reversed() {
                let last = i == parts.count - 1
                next = try lower(p, then: shareable(next, "seq"), end: last ? end : nil, path: "\(path).elements[\(i)]")
            }
            return next
        case .or(let parts):
            let after = shareable(k, "or")
            var alternatives: [GrammarExpr] = []
            for (i, p) in parts.enumerated() {
                alternatives.append(try lower(p, then: after, end: end, path: "\(path).elements[\(i)]"))
            }
            return .choice(alternatives)
        case .optional(let x):
            return Self.seq([.optional(try plain(x, path: "\(path).content")), k])
        case .star(let x):
            return Self.seq([.star(try plain(x, path: "\(path).content")), k])
        case .plus(let x):
            return Self.seq([.plus(try plain(x, path: "\(path).content")), k])
        case .repeat(let x, let lo, let hi):
            guard lo >= 0, hi.map({ $0 >= lo }) ?? true else {
                throw .invalidFormat(path: path, "repeat bounds min \(lo), max \(hi.map(String.init) ?? "-1") are invalid")
            }
            return Self.seq([.repeat(try plain(x, path: "\(path).content"), min: lo, max: hi), k])
        case .tag(let tag):
            return Self.seq([Self.delimiter(tag.begin), try lowerTagRest(tag, then: k, path: path)])
        case .triggeredTags(let tt):
            return try lowerTriggered(tt, then: k, end: end, path: path)
        case .tagsWithSeparator(let ts):
            var alternatives: [GrammarExpr] = []
            for (j, tag) in ts.tags.enumerated() {
                alternatives.append(Self.seq([Self.delimiter(tag.begin), try lowerTagRest(tag, then: .empty, path: "\(path).tags[\(j)]")]))
            }
            let one = shareable(.choice(alternatives), "tag")
            let list: GrammarExpr = ts.stopAfterFirst ? one : .sequence([one, .star(Self.seq([.literal(ts.separator), one]))])
            return Self.seq([ts.atLeastOne ? list : .optional(list), k])
        }
    }

    /// `t` alone, as a rule reference when it is not small (for repeats).
    mutating func plain(_ t: StructuralTag, path: String) throws(StructuralTagError) -> GrammarExpr {
        shareable(try lower(t, then: .empty, end: nil, path: path), "part")
    }

    /// What follows a tag's begin: its content, then one of its ends, then `k`. Free text content stops at
    /// the first end.
    mutating func lowerTagRest(_ tag: StructuralTag.Tag, then k: GrammarExpr, path: String) throws(StructuralTagError) -> GrammarExpr {
        guard !tag.end.isEmpty else { return try lower(tag.content, then: k, end: nil, path: "\(path).content") }
        let after = shareable(k, "after")
        return try lower(tag.content, then: Self.seq([.choice(tag.end.map(Self.delimiter)), after]),
                         end: TagEnd(delimiters: tag.end, after: after), path: "\(path).content")
    }

    /// Free text followed by `k`, or stopped by the tag's ends when it is the tail of a tag's content.
    mutating func lowerText(_ a: StructuralTag.AnyText, then k: GrammarExpr, end: TagEnd?, path: String) throws(StructuralTagError) -> GrammarExpr {
        if let n = a.maxTokens, n < 0 { throw .invalidFormat(path: path, "max_tokens \(n) is negative") }
        let budget = a.maxTokens
        if budget != nil && inBudget { throw .nestedBudget(path: path) }
        var text = FreeText(excluding: a.excludes, maxBytes: a.maxBytes)
        let after: GrammarExpr
        if let end {
            // Inside a budget the body ends with the end delimiter itself; the cut then writes the first end.
            after = budget == nil ? end.after : .empty
            for d in end.delimiters {
                switch d {
                case .text(let s): text.ends.append(.init(s, then: after))
                case .token(let r): text.tokenEnds.append(.init(r, then: after))
                }
            }
        } else {
            after = budget == nil ? k : .empty
            text.otherwise = after
        }
        let body: GrammarExpr
        do { body = try grammar.addFreeText(text, name: name("text")) } catch { throw .text(path: path, error) }
        guard let budget else { return body }
        let cut = end.map { Self.delimiter($0.delimiters[0]) } ?? .empty
        return Self.seq([.tokenBudget(body, maxTokens: budget, then: cut), end?.after ?? k])
    }

    /// Free text with triggers dispatching into tags (see `StructuralTag.TriggeredTags`).
    mutating func lowerTriggered(_ tt: StructuralTag.TriggeredTags, then k: GrammarExpr, end: TagEnd?,
                                 path: String) throws(StructuralTagError) -> GrammarExpr {
        let after = shareable(end?.after ?? k, "after")
        let loop = grammar.declareRule(name: name("triggered"))
        let next: GrammarExpr = tt.stopAfterFirst ? after : .rule(loop)
        // Each tag after its begin, then the next text (or the end).
        var rests: [GrammarExpr] = []
        for (j, tag) in tt.tags.enumerated() {
            rests.append(shareable(try lowerTagRest(tag, then: next, path: "\(path).tags[\(j)]"), "tag"))
        }
        var text = FreeText(excluding: tt.excludes)
        var matched = [Bool](repeating: false, count: tt.tags.count)
        for trigger in tt.triggers {
            var alternatives: [GrammarExpr] = []
            for (j, tag) in tt.tags.enumerated() {
                switch (trigger, tag.begin) {
                case (.text(let t), .text(let b)) where b.utf8.starts(with: t.utf8):
                    alternatives.append(Self.seq([.bytes(Array(b.utf8.dropFirst(t.utf8.count))), rests[j]]))
                    matched[j] = true
                case (.token(let t), .token(let b)) where t == b:
                    alternatives.append(rests[j])
                    matched[j] = true
                default: break
                }
            }
            let dispatch: GrammarExpr = alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
            switch trigger {
            case .text(let t): text.ends.append(.init(t, then: dispatch))
            case .token(let r): text.tokenEnds.append(.init(r, then: dispatch))
            }
        }
        if let j = matched.firstIndex(of: false) {
            let begin: String
            switch tt.tags[j].begin { case .text(let b): begin = b; case .token(let r): begin = r.description }
            throw .tagWithoutTrigger(path: "\(path).tags[\(j)]", begin: begin)
        }
        if let end {
            for d in end.delimiters {
                switch d {
                case .text(let s): text.ends.append(.init(s, then: after))
                case .token(let r): text.tokenEnds.append(.init(r, then: after))
                }
            }
        } else {
            text.otherwise = after
        }
        let body: GrammarExpr
        do { body = try grammar.addFreeText(text, name: name("text")) } catch { throw .text(path: path, error) }
        grammar.define(loop, as: body)
        guard tt.atLeastOne else { return .rule(loop) }
        var first: [GrammarExpr] = []
        for (j, tag) in tt.tags.enumerated() { first.append(Self.seq([Self.delimiter(tag.begin), rests[j]])) }
        return .choice(first)
    }
}
