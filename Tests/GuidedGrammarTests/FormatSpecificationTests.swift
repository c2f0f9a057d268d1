import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `format` as the drafts say (issue 29): a format no draft defines is an annotation, reported as a
/// warning (or refused with `unknownFormats: .refuse`); every defined format is enforced or refused by
/// name, in a schema of any draft (a format of another draft than the schema's with a warning saying so).
@Suite struct FormatSpecificationTests {
    static let draft7 = #""$schema":"http://json-schema.org/draft-07/schema#""#
    static let draft4 = #""$schema":"http://json-schema.org/draft-04/schema#""#

    static func warnings(_ schema: String, _ options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) throws -> [String] {
        try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema), options: options).warnings.map(\.description)
    }

    @Test func everyDefinedFormatIsEnforcedOrRefusedByName() {
        for name in JSONSchemaDraft.allDefinedFormats.sorted() {
            switch JSONFormats.support(name) {
            case .enforced: #expect(JSONFormats.known.contains(name), "\(name)")
            case .refused: Issue.record("\(name) is refused")
            case .undefined: Issue.record("\(name) is defined but treated as undefined")
            }
        }
        for name in ["color", "semver", "int64", "url", ""] {
            guard case .undefined = JSONFormats.support(name) else { Issue.record("\(name)"); continue }
        }
        #expect(Set(JSONFormats.known) == JSONSchemaDraft.allDefinedFormats)
        #expect(JSONSchemaDraft.draft4.definedFormats == ["date-time", "email", "hostname", "ipv4", "ipv6", "uri"])
        #expect(JSONSchemaDraft.draft6.definedFormats.subtracting(JSONSchemaDraft.draft4.definedFormats)
                == ["uri-reference", "uri-template", "json-pointer"])
        #expect(JSONSchemaDraft.draft7.definedFormats.subtracting(JSONSchemaDraft.draft6.definedFormats)
                == ["date", "time", "idn-email", "idn-hostname", "iri", "iri-reference", "relative-json-pointer", "regex"])
        #expect(JSONSchemaDraft.draft2019_09.definedFormats.subtracting(JSONSchemaDraft.draft7.definedFormats) == ["duration", "uuid"])
        #expect(JSONSchemaDraft.draft2020_12.definedFormats == JSONSchemaDraft.draft2019_09.definedFormats)
    }

    @Test func undefinedFormatsAreAnnotationsWithAWarning() throws {
        let schema = #"{\#(Self.draft7),"properties":{"c":{"type":"string","format":"color"},"u":{"type":"string","format":"uuid"}}}"#
        #expect(try Self.warnings(schema) == [
            "format 'color' at /properties/c: a format no draft defines; ignored",
            "format 'uuid' at /properties/u: a format of drafts 2019-09 and 2020-12, not of draft 7; enforced as they define it",
        ])
        let compilation = try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema))
        #expect(compilation.warnings.map(\.kind) == [.unknownFormat, .otherDraftFormat])
        #expect(compilation.warnings.map(\.format) == ["color", "uuid"])
        #expect(compilation.warnings.map(\.keyword) == ["format", "format"])
        #expect(JSONSchemaTestSupport.accepts(compilation.grammar, #"{"c":"not a colour","u":"123e4567-e89b-12d3-a456-426614174000"}"#))
        #expect(!JSONSchemaTestSupport.accepts(compilation.grammar, #"{"u":"not a uuid"}"#))
        #expect(!JSONSchemaTestSupport.accepts(compilation.grammar, #"{"c":1}"#))
        // In a draft that defines it: enforced, no warning.
        #expect(try Self.warnings(#"{"properties":{"u":{"type":"string","format":"uuid"}}}"#).isEmpty)
    }

    @Test func refusePolicyRefusesUndefinedFormatsOnly() throws {
        let refuse = JSONSchemaCompileOptions(unknownFormats: .refuse)
        #expect(JSONSchemaTestSupport.error(#"{"items":{"format":"semver"}}"#, refuse)?.description
                == "unsupported keyword 'format' at /items: unknown format 'semver': a format no draft defines (unknownFormats is .refuse)")
        // Defined formats compile under both policies, in any draft.
        let g = try JSONSchemaTestSupport.compile(#"{\#(Self.draft7),"items":{"format":"uuid"}}"#, refuse)
        #expect(!JSONSchemaTestSupport.accepts(g, #"["x"]"#))
        _ = try JSONSchemaTestSupport.compile(#"{"format":"uri-template"}"#, refuse)
    }

    /// `regex` is enforced as a subset of ECMA-262 patterns (JSONFormats+Regex.swift) under either
    /// policy, in every draft (draft 4 does not define it, but validators check it there too).
    @Test func regexIsEnforcedInEveryDraft() throws {
        for options in [JSONSchemaCompileOptions(), JSONSchemaCompileOptions(unknownFormats: .refuse)] {
            for draft in [Self.draft4, Self.draft7, #""$schema":"https://json-schema.org/draft/2020-12/schema""#] {
                let g = try JSONSchemaTestSupport.compile(#"{\#(draft),"properties":{"r":{"format":"regex"}}}"#, options)
                #expect(JSONSchemaTestSupport.accepts(g, #"{"r":"^(a|b)+\\d{2,3}$"}"#))
                #expect(!JSONSchemaTestSupport.accepts(g, #"{"r":"(a"}"#))
                #expect(!JSONSchemaTestSupport.accepts(g, #"{"r":"a{3,2}"}"#))
            }
        }
        // A `regex` format on a non-string type has nothing to enforce.
        let g = try JSONSchemaTestSupport.compile(#"{"type":"integer","format":"regex"}"#)
        #expect(JSONSchemaTestSupport.accepts(g, "3"))
    }

    /// A format hidden by a sibling `$ref` (drafts 4-7) is reported as that, not as a format.
    @Test func formatBesideReferenceIsReportedOnce() throws {
        let schema = ##"{\##(Self.draft7),"definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","format":"color"}}}"##
        #expect(try Self.warnings(schema) == ["keyword 'format' at /properties/a: beside '$ref', which makes its siblings ignored in draft 7; ignored"])
    }
}
