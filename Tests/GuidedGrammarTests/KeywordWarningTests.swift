import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Keywords the schema's draft ignores are listed as warnings (exact texts), or refused on request.
@Suite struct KeywordWarningTests {
    static func warnings(_ schema: String, _ options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) throws -> [String] {
        try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema), options: options).warnings.map(\.description)
    }

    @Test func typoInPropertiesIsNamedWithTheLikelyKeyword() throws {
        // The outside case: `propertis` compiles to "any object", as the specification says.
        #expect(try Self.warnings(#"{"type":"object","propertis":{"a":{"type":"string"}}}"#)
                == ["unknown keyword 'propertis' at the root: did you mean 'properties'?; ignored"])
    }

    @Test func warningsInDocumentOrderWithPointers() throws {
        let schema = #"{"properties":{"a/b":{"type":"string","minlength":2,"nullable":true}},"items":{"maxitem":1},"x-extension":{"anything":1}}"#
        #expect(try Self.warnings(schema) == [
            "unknown keyword 'minlength' at /properties/a~1b: did you mean 'minLength'?; ignored",
            "unknown keyword 'nullable' at /properties/a~1b: a keyword of no draft; ignored",
            "unknown keyword 'maxitem' at /items: did you mean 'maxItems'?; ignored",
        ])
        let draft7 = #"{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"maxitem":1}]}"#
        #expect(try Self.warnings(draft7) == ["unknown keyword 'maxitem' at /items/0: did you mean 'maxItems'?; ignored"])
    }

    @Test func keywordsOfOtherDrafts() throws {
        let draft7 = #"{"$schema":"http://json-schema.org/draft-07/schema#","prefixItems":[{"type":"string"}],"dependentRequired":{"a":["b"]},"$defs":{}}"#
        #expect(try Self.warnings(draft7) == [
            "keyword 'prefixItems' at the root: a keyword of draft 2020-12, not of draft 7; ignored",
            "keyword 'dependentRequired' at the root: a keyword of drafts 2019-09 and 2020-12, not of draft 7; ignored",
            "keyword '$defs' at the root: a keyword of drafts 2019-09 and 2020-12, not of draft 7; ignored",
        ])
        #expect(try Self.warnings(##"{"additionalItems":false,"$recursiveRef":"#","id":"x"}"##) == [
            "keyword 'additionalItems' at the root: a keyword of drafts 4 to 2019-09, not of draft 2020-12; ignored",
            "keyword '$recursiveRef' at the root: a keyword of draft 2019-09, not of draft 2020-12; ignored",
            "keyword 'id' at the root: a keyword of draft 4, not of draft 2020-12; ignored",
        ])
    }

    @Test func siblingsOfReferenceInDraft7() throws {
        let schema = ##"{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","description":"d","definitions":{"a":{"type":"string","maxLenght":3}},"type":"integer"}"##
        #expect(try Self.warnings(schema) == [
            "keyword 'type' at the root: beside '$ref', which makes its siblings ignored in draft 7; ignored",
            "unknown keyword 'maxLenght' at /definitions/a: did you mean 'maxLength'?; ignored",
        ])
        // From 2019-09 on, siblings of `$ref` apply.
        #expect(try Self.warnings(##"{"$ref":"#/$defs/a","$defs":{"a":{}},"type":"integer"}"##).isEmpty)
    }

    @Test func cleanSchemasHaveNone() throws {
        #expect(try Self.warnings(#"{"title":"t","type":"object","properties":{"propertis":{"type":"string"}},"required":["propertis"]}"#).isEmpty)
        #expect(try Self.warnings(#"true"#).isEmpty)
    }

    @Test func refusedOnRequestNamingTheFirstOne() {
        var options = JSONSchemaCompileOptions()
        options.ignoredKeywords = .refuse
        // A location's own keywords come before its subschemas': `nullable` is the first here.
        #expect(throws: JSONSchemaCompileError(.ignoredKeyword, keyword: "nullable", pointer: "",
                                               detail: "a keyword of no draft (ignoredKeywords is .refuse)")) {
            _ = try JSONSchemaCompiler.compile(text: #"{"items":{"propertis":{}},"nullable":true}"#, options: options)
        }
        #expect(JSONSchemaCompileError(.ignoredKeyword, keyword: "propertis", pointer: "/items",
                                       detail: "did you mean 'properties'? (ignoredKeywords is .refuse)").description
                == "keyword 'propertis' at /items refused: did you mean 'properties'? (ignoredKeywords is .refuse)")
        #expect(throws: JSONSchemaCompileError(.ignoredKeyword, keyword: "propertis", pointer: "/items",
                                               detail: "did you mean 'properties'? (ignoredKeywords is .refuse)")) {
            _ = try JSONSchemaCompiler.compile(text: #"{"items":{"propertis":{}}}"#, options: options)
        }
        // The default compile ignores them, as the specification says.
        #expect((try? JSONSchemaCompiler.compile(text: #"{"items":{"propertis":{}},"nullable":true}"#)) != nil)
    }
}
