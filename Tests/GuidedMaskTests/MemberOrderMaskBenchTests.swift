import Foundation
import Testing
import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers
import GuidedTestSupport

/// Member sets take an object's members in any order, so every valid maskbench-dev instance with each
/// object's members reversed must be accepted too (JSON Schema never looks at member order). Run on the
/// files with an object of more than 64 members or an `enum`/`const` object (where the two bugs this
/// found lived: both fell back to one fixed order) and on every 20th other file, through the matcher
/// over single-byte tokens. docs/reliability.md, "Relaxed schemas", runs all of them with shuffles.
@Suite(.enabled(if: SharedData.present(for: "MemberOrderMaskBenchTests"))) struct MemberOrderMaskBenchTests {
    static let vocabulary = TokenVocabulary(tokens: (0..<256).map { [UInt8($0)] } + [Array("</s>".utf8)],
                                            specialTokenIDs: [256], eosTokenIDs: [256])

    /// `value` with every object's members in reverse order.
    static func reversed(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let o): return .object(JSONObject(o.entries.reversed().map { (key: $0.key, value: reversed($0.value)) }))
        case .array(let items): return .array(items.map(reversed))
        default: return value
        }
    }

    /// Whether `value` (a schema) holds an object of more than 64 declared members or an object in an
    /// `enum`/`const`.
    static func hasOrderSensitiveObject(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let o):
            if case .object(let properties)? = o["properties"], properties.count > 64 { return true }
            if case .object(let c)? = o["const"], c.count > 1 { return true }
            if case .array(let listed)? = o["enum"], listed.contains(where: { if case .object(let e) = $0 { e.count > 1 } else { false } }) {
                return true
            }
            return o.entries.contains { hasOrderSensitiveObject($0.value) }
        case .array(let items): return items.contains(where: hasOrderSensitiveObject)
        default: return false
        }
    }

    @Test func reversedMembersAreAccepted() throws {
        let folder = SharedData.path("corpora/maskbench-dev")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        let index = try VocabularyIndex(Self.vocabulary)
        let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
        var checked = 0, sensitive = 0, rejected: [String] = []
        for (i, file) in files.enumerated() {
            let document = try JSONParser.parse(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
            guard let schema = document["schema"] else { continue }
            let orderSensitive = Self.hasOrderSensitiveObject(schema)
            guard orderSensitive || i % 20 == 0 else { continue }
            guard let grammar = try? JSONSchemaCompiler.compile(schema, options: options),
                  let compiled = try? CompiledGrammar(grammar, vocabulary: index) else { continue }
            if orderSensitive { sensitive += 1 }
            for test in document["tests"]?.arrayValue ?? [] where test["valid"]?.boolValue == true {
                let text = Self.reversed(test["data"]!).serialized(.compact)
                var m = GrammarMatcher(compiled)
                do { try m.accept(bytes: Array(text.utf8)) } catch { rejected.append(file); continue }
                if !m.canTerminate { rejected.append(file) }
                checked += 1
            }
        }
        #expect(rejected.isEmpty, "valid instances with reversed members rejected: \(rejected)")
        print("member order: \(checked) instances of \(sensitive) order-sensitive files and others checked")
        #expect(sensitive >= 30, "only \(sensitive) files with order-sensitive objects compiled")
        #expect(checked >= 200)
    }
}
