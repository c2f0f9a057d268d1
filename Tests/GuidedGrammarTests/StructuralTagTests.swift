import Testing
import GuidedGrammar
import GuidedSchema

/// Structural tags: the JSON form (XGrammar's examples read as written), errors with their paths, and
/// the languages the compiled grammars accept (by the reference recognizer).
@Suite struct StructuralTagTests {
    static let weatherSchema: JSONValue = ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]]

    /// XGrammar's `triggered_tags` example, as its documentation writes it.
    static let triggeredJSON = """
    {"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": ["<function="], "tags": [
      {"type": "tag", "begin": "<function=get_weather>", "content": {"type": "json_schema", "json_schema":
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}, "end": "</function>"},
      {"type": "tag", "begin": "<function=get_time>", "content": {"type": "json_schema", "json_schema":
        {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}}, "end": "</function>"}],
      "at_least_one": false, "stop_after_first": false}}
    """

    @Test func readsXGrammarTriggeredTags() throws {
        let tag = try StructuralTag(jsonText: Self.triggeredJSON)
        guard case .triggeredTags(let tt) = tag else { Issue.record("\(tag)"); return }
        #expect(tt.triggers == [.text("<function=")])
        #expect(tt.tags.count == 2)
        #expect(tt.tags[0].begin == .text("<function=get_weather>"))
        #expect(tt.tags[0].content == .jsonSchema(Self.weatherSchema))
        #expect(tt.tags[0].end == [.text("</function>")])
        #expect(try StructuralTag(json: tag.json) == tag)
    }

    @Test func readsTokenLevelAndLegacyForms() throws {
        let tokens = try StructuralTag(jsonText: """
        {"type": "sequence", "elements": [
          {"type": "tag", "begin": {"type": "token", "token": "<think>"}, "content": {"type": "any_tokens", "max_tokens": 64},
           "end": {"type": "token", "token": 151668}},
          {"type": "token_triggered_tags", "trigger_tokens": ["<tool_call>"], "tags": [
            {"type": "tag", "begin": {"type": "token", "token": "<tool_call>"}, "content": {"type": "json_schema", "json_schema": {}},
             "end": {"type": "token", "token": "</tool_call>"}}], "at_least_one": true}]}
        """)
        let expected = StructuralTag.sequence([
            .tag(.init(begin: .token(.text("<think>")), content: .anyText(.init(maxTokens: 64)), end: .token(.id(151668)))),
            .triggeredTags(.init(triggers: [.token(.text("<tool_call>"))],
                                 tags: [.init(begin: .token(.text("<tool_call>")), content: .jsonSchema([:]), end: .token(.text("</tool_call>")))],
                                 atLeastOne: true)),
        ])
        #expect(tokens == expected)
        #expect(try StructuralTag(json: expected.json) == expected)
        let legacy = try StructuralTag(jsonText: """
        {"type": "structural_tag", "structures": [{"begin": "<function=f>", "schema": {"type": "object"}, "end": "</function>"}],
         "triggers": ["<function="]}
        """)
        #expect(legacy == .triggeredTags(.init(triggers: ["<function="], tags: [.init(begin: "<function=f>", content: .jsonSchema(["type": "object"]), end: "</function>")])))
    }

    @Test func errorsNameTheirPlace() throws {
        #expect(throws: StructuralTagError.invalidFormat(path: "format.elements[1]", "unknown format type `lark`")) {
            try StructuralTag(jsonText: #"{"type": "sequence", "elements": [{"type": "const_string", "value": "a"}, {"type": "lark"}]}"#)
        }
        #expect(throws: StructuralTagError.invalidFormat(path: "format", "any_text `max_chars` is not supported: bound the text with `max_bytes` or `max_tokens`")) {
            try StructuralTag(jsonText: #"{"type": "any_text", "max_chars": 10}"#)
        }
        let orphan = StructuralTag.triggeredTags(.init(triggers: ["<f="], tags: [.init(begin: "<g=x>", content: .constString("1"), end: "</g>")]))
        #expect(throws: StructuralTagError.tagWithoutTrigger(path: "format.tags[0]", begin: "<g=x>")) { try StructuralTagCompiler.compile(orphan) }
        // A segment's regex: its anchors would mean the segment's ends, not the text's.
        do {
            _ = try StructuralTagCompiler.compile(.sequence([.constString("x"), .regex("(a$)*b")]))
            Issue.record("compiled")
        } catch {
            guard case .regex(let path, let e) = error else { Issue.record("\(error)"); return }
            #expect(path == "format.elements[1]")
            #expect(e.offset == 2 && e.kind == .unsupported)
        }
        let badSchema = StructuralTag.sequence([.constString("x"), .jsonSchema(["type": "string", "pattern": "(a)\\1"])])
        do {
            _ = try StructuralTagCompiler.compile(badSchema)
            Issue.record("compiled")
        } catch {
            guard case .schema(let path, let e) = error else { Issue.record("\(error)"); return }
            #expect(path == "format.elements[1]")
            #expect(e.keyword == "pattern")
        }
        let nested = StructuralTag.tag(.init(begin: "<a>", content: .sequence([.anyText(.init(maxTokens: 3)),
            .tag(.init(begin: "<b>", content: .anyText(.init(maxTokens: 2)), end: "</b>"))]), end: "</a>"))
        _ = try StructuralTagCompiler.compile(nested)   // siblings, not nested: fine
    }

    @Test func triggeredTagsLanguage() throws {
        let g = try StructuralTagCompiler.compile(try StructuralTag(jsonText: Self.triggeredJSON))
        #expect(try g.accepts(text: #"I will call a tool now. <function=get_weather>{"city": "San Francisco"}</function>"#))
        #expect(try g.accepts(text: #"<function=get_time>{"timezone": "UTC"}</function> and then text <function=get_weather>{"city": "x"}</function>"#))
        #expect(try g.accepts(text: "no call at all"))
        #expect(try g.accepts(text: ""))
        // The trigger commits to a call: a trigger then anything else is refused.
        #expect(try !g.accepts(text: "a <function=unknown>{}</function>"))
        #expect(try !g.accepts(text: #"<function=get_weather>{"town": "x"}</function>"#))
        #expect(try !g.accepts(text: "text <function="))
    }

    @Test func atLeastOneAndStopAfterFirst() throws {
        let call = StructuralTag.Tag(begin: "<f>", content: .jsonSchema(["type": "integer"]), end: "</f>")
        let required = try StructuralTagCompiler.compile(.triggeredTags(.init(triggers: ["<f>"], tags: [call], atLeastOne: true, stopAfterFirst: true)))
        #expect(try required.accepts(text: "<f>1</f>"))
        #expect(try !required.accepts(text: "x<f>1</f>"))
        #expect(try !required.accepts(text: "<f>1</f><f>2</f>"))
        #expect(try !required.accepts(text: ""))
        let parallel = try StructuralTagCompiler.compile(.tagsWithSeparator(.init(tags: [call], separator: "\n", atLeastOne: true)))
        #expect(try parallel.accepts(text: "<f>1</f>\n<f>2</f>"))
        #expect(try !parallel.accepts(text: "<f>1</f> <f>2</f>"))
        let single = try StructuralTagCompiler.compile(.triggeredTags(.init(triggers: ["<f>"], tags: [call], stopAfterFirst: true)))
        #expect(try single.accepts(text: "hello <f>1</f>"))
        #expect(try !single.accepts(text: "hello <f>1</f> bye"))
    }

    @Test func textInsideATagStopsAtItsFirstEnd() throws {
        let think = StructuralTag.sequence([.tag(.init(begin: "<think>", content: .anyText(.init()), end: "</think>")),
                                            .constString("\n\n"), .anyText(.init())])
        let g = try StructuralTagCompiler.compile(think)
        #expect(try g.accepts(text: "<think>a < b </thin</think>\n\nanswer"))
        #expect(try !g.accepts(text: "<think>a</think>b</think>\n\nanswer"))
        #expect(try g.accepts(text: "<think></think>\n\n"))
        // Bounded in bytes: at most 3 bytes of thinking.
        let bounded = try StructuralTagCompiler.compile(.tag(.init(begin: "<t>", content: .anyText(.init(maxBytes: 3)), end: "</t>")))
        #expect(try bounded.accepts(text: "<t>abc</t>"))
        #expect(try !bounded.accepts(text: "<t>abcd</t>"))
    }
}
