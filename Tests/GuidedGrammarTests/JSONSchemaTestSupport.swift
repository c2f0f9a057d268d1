import Testing
import Foundation
import GuidedSchema
@testable import GuidedGrammar

/// Helpers shared by the JSON Schema compiler tests: compile schema text, test instances exactly with
/// the reference recognizer, locate shared corpora relative to the package root.
enum JSONSchemaTestSupport {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sharedRoot = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static func compile(_ schema: String, _ options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) throws -> Grammar {
        try JSONSchemaCompiler.compile(text: schema, options: options)
    }

    /// Exact membership of `text` in the grammar's language (`GrammarMembership`: the reference Earley
    /// recognizer, or the matcher for member sets; a grammar neither answers for is a recorded issue).
    static func accepts(_ grammar: Grammar, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        GrammarMembership.accepts(grammar, text, sourceLocation: sourceLocation)
    }

    /// Compiles a table row (with `options`, else the row's own) and expects every `accept` text accepted
    /// and every `reject` text rejected.
    static func expectExactly(_ c: SchemaCase, options: JSONSchemaCompileOptions? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let g = try compile(c.schema, options ?? c.options)
        let oracle = GrammarMembership.Oracle(g, sourceLocation: sourceLocation)
        for text in c.accept { #expect(oracle.accepts(text), "should accept \(text)", sourceLocation: sourceLocation) }
        for text in c.reject { #expect(!oracle.accepts(text), "should reject \(text)", sourceLocation: sourceLocation) }
    }

    /// Every sequence of `keys` (repeats allowed) of length 0 through `n`, shortest first.
    static func keySequences(_ keys: [String], upTo n: Int) -> [[String]] {
        var sequences: [[String]] = [[]]
        var frontier: [[String]] = [[]]
        for _ in 0..<n {
            frontier = frontier.flatMap { s in keys.map { s + [$0] } }
            sequences += frontier
        }
        return sequences
    }

    /// Every compact JSON array of up to `n` of `items` (repeats allowed), shortest first.
    static func arrays(of items: [String], upTo n: Int) -> [String] {
        var out: [[String]] = [[]]
        var frontier: [[String]] = [[]]
        for _ in 0..<n {
            frontier = frontier.flatMap { a in items.map { a + [$0] } }
            out += frontier
        }
        return out.map { "[" + $0.joined(separator: ",") + "]" }
    }

    static func error(_ schema: String, _ options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) -> JSONSchemaCompileError? {
        do { _ = try compile(schema, options); return nil } catch let e as JSONSchemaCompileError { return e } catch { return nil }
    }
}

/// One table row: a schema with texts that must be accepted and texts that must be rejected.
struct SchemaCase: CustomTestStringConvertible, Sendable {
    let schema: String
    let accept: [String]
    let reject: [String]
    var options = JSONSchemaCompileOptions()
    var testDescription: String { schema }
}
