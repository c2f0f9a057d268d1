import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `format` as the drafts say (issue 29): a format the schema's draft does not define is an annotation,
/// reported as a warning (or refused with `unknownFormats: .refuse`); every defined format is enforced
/// or refused by name; the grammar and the validator agree on each format.
@Suite struct FormatSpecificationTests {
    static let draft7 = #""$schema":"http://json-schema.org/draft-07/schema#""#
    static let draft4 = #""$schema":"http://json-schema.org/draft-04/schema#""#

    static func warnings(_ schema: String, _ options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) throws -> [String] {
        try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema), options: options).warnings.map(\.description)
    }

    @Test func everyDefinedFormatIsEnforcedOrRefusedByName() {
        for draft in JSONSchemaDraft.allCases {
            for name in draft.definedFormats.sorted() {
                switch JSONFormats.support(name, draft: draft) {
                case .enforced: #expect(JSONFormats.known.contains(name), "\(name)")
                case .refused: #expect(name == "regex")
                case .undefined: Issue.record("\(name) is defined by \(draft) but treated as undefined")
                }
            }
        }
        #expect(Set(JSONFormats.known).union(["regex"]) == JSONSchemaDraft.draft2020_12.definedFormats)
        #expect(JSONSchemaDraft.draft4.definedFormats == ["date-time", "email", "hostname", "ipv4", "ipv6", "uri"])
        #expect(JSONSchemaDraft.draft6.definedFormats.subtracting(JSONSchemaDraft.draft4.definedFormats)
                == ["uri-reference", "uri-template", "json-pointer"])
        #expect(JSONSchemaDraft.draft2019_09.definedFormats.subtracting(JSONSchemaDraft.draft7.definedFormats) == ["duration", "uuid"])
    }

    @Test func undefinedFormatsAreAnnotationsWithAWarning() throws {
        let schema = #"{\#(Self.draft7),"properties":{"c":{"type":"string","format":"color"},"u":{"type":"string","format":"uuid"}}}"#
        #expect(try Self.warnings(schema) == [
            "format 'color' at /properties/c: a format no draft defines; ignored",
            "format 'uuid' at /properties/u: a format of drafts 2019-09 and 2020-12, not of draft 7; ignored",
        ])
        let compilation = try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema))
        #expect(compilation.warnings.map(\.kind) == [.unknownFormat, .unknownFormat])
        #expect(compilation.warnings.map(\.format) == ["color", "uuid"])
        #expect(compilation.warnings.map(\.keyword) == ["format", "format"])
        #expect(JSONSchemaTestSupport.accepts(compilation.grammar, #"{"c":"not a colour","u":"not a uuid"}"#))
        #expect(!JSONSchemaTestSupport.accepts(compilation.grammar, #"{"u":1}"#))
        // The same name in a draft that defines it is enforced, and no warning is given.
        let later = #"{"properties":{"u":{"type":"string","format":"uuid"}}}"#
        #expect(try Self.warnings(later).isEmpty)
        let g = try JSONSchemaTestSupport.compile(later)
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"u":"not a uuid"}"#))
        #expect(JSONSchemaTestSupport.accepts(g, #"{"u":"123e4567-e89b-12d3-a456-426614174000"}"#))
    }

    @Test func refusePolicyRefusesUndefinedFormatsOnly() throws {
        let refuse = JSONSchemaCompileOptions(unknownFormats: .refuse)
        #expect(JSONSchemaTestSupport.error(#"{\#(Self.draft7),"items":{"format":"uuid"}}"#, refuse)?.description
                == "unsupported keyword 'format' at /items: unknown format 'uuid': a format of drafts 2019-09 and 2020-12, not of draft 7 (unknownFormats is .refuse)")
        #expect(JSONSchemaTestSupport.error(#"{"items":{"format":"semver"}}"#, refuse)?.description
                == "unsupported keyword 'format' at /items: unknown format 'semver': a format no draft defines (unknownFormats is .refuse)")
        // Defined formats compile under both policies.
        _ = try JSONSchemaTestSupport.compile(#"{"format":"uri-template"}"#, refuse)
    }

    /// `regex` is defined from draft 7 on and refused there under either policy; in drafts 4 and 6 it is an
    /// undefined name like any other.
    @Test func regexIsRefusedWhereDefinedAndIgnoredElsewhere() throws {
        for options in [JSONSchemaCompileOptions(), JSONSchemaCompileOptions(unknownFormats: .refuse)] {
            let e = JSONSchemaTestSupport.error(#"{\#(Self.draft7),"properties":{"r":{"format":"regex"}}}"#, options)
            #expect(e?.kind == .unsupported)
            #expect(e?.keyword == "format")
            #expect(e?.pointer == "/properties/r")
        }
        let schema = #"{\#(Self.draft4),"properties":{"r":{"type":"string","format":"regex"}}}"#
        #expect(try Self.warnings(schema) == ["format 'regex' at /properties/r: a format of drafts 7 to 2020-12, not of draft 4; ignored"])
        #expect(JSONSchemaTestSupport.accepts(try JSONSchemaTestSupport.compile(schema), #"{"r":"(unclosed"}"#))
    }

    /// A format hidden by a sibling `$ref` (drafts 4-7) is reported as that, not as a format.
    @Test func formatBesideReferenceIsReportedOnce() throws {
        let schema = ##"{\##(Self.draft7),"definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","format":"color"}}}"##
        #expect(try Self.warnings(schema) == ["keyword 'format' at /properties/a: beside '$ref', which makes its siblings ignored in draft 7; ignored"])
    }
}
