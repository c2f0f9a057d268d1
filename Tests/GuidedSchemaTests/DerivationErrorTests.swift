import Foundation
import Testing
@testable import GuidedSchema

// What cannot be derived is an error naming the type and what to write by hand.

private struct BadHint: Decodable, GuidedGenerable {
    let name: String
    let age: Int
    static var schemaHints: [PropertyHint] { [PropertyHint("nmae", description: "typo")] }
}

private struct WrongGuide: Decodable, GuidedGenerable {
    let age: Int
    static var schemaHints: [PropertyHint] { [PropertyHint("age", guides: .minLength(2))] }
}

private enum ErrShape: Decodable {
    case circle(radius: Double)
    case square(side: Double)
}

private struct ErrDrawing: Decodable, GuidedGenerable {
    let shape: ErrShape
}

private enum Mood: String, Decodable {
    case happy, sad
}

private struct Diary: Decodable, GuidedGenerable {
    let mood: Mood
}

private struct IntKeyed: Decodable, GuidedGenerable {
    let byID: [Int: String]
}

private final class Endless: Decodable, GuidedGenerable {
    let name: String
    let next: Endless
}

private struct Pair: Decodable, GuidedGenerable {
    let a: Int
    let b: String
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        a = try c.decode(Int.self)
        b = try c.decode(String.self)
    }
}

private struct Nothing: Decodable, GuidedGenerable {
    init(from decoder: any Decoder) throws {}
}

@Suite("Derivation errors")
struct DerivationErrorTests {
    @Test func unknownHintIsAnError() {
        #expect(throws: SchemaError.unknownHint(property: "nmae", type: "BadHint", knownProperties: ["name", "age"])) {
            try BadHint.outputSchema
        }
    }

    @Test func guideOnWrongTypeIsAnError() {
        #expect(throws: SchemaError.guideNotApplicable(guide: ".minLength(2)", schemaType: "integer", path: "/properties/age")) {
            try WrongGuide.outputSchema
        }
    }

    @Test func enumWithAssociatedValuesSaysWhatToWrite() throws {
        let error = try #require(throws: SchemaError.self) { try ErrDrawing.outputSchema }
        guard case .cannotDerive(let type, let reason, let remedy) = error else { Issue.record("\(error)"); return }
        #expect(type == "ErrShape")
        #expect(reason.contains("at shape:"))
        #expect(reason.contains("associated values"))
        #expect(remedy.contains("declaredSchema"))
    }

    @Test func stringEnumWithoutConformanceSuggestsSchemaEnumeration() throws {
        let error = try #require(throws: SchemaError.self) { try Diary.outputSchema }
        guard case .cannotDerive(let type, _, let remedy) = error else { Issue.record("\(error)"); return }
        #expect(type == "Mood")
        #expect(remedy.contains("SchemaEnumeration"))
    }

    @Test func nonStringDictionaryKeysAreRefused() throws {
        let error = try #require(throws: SchemaError.self) { try IntKeyed.outputSchema }
        guard case .cannotDerive(let type, let reason, let remedy) = error else { Issue.record("\(error)"); return }
        #expect(type == "Dictionary<Int, String>")
        #expect(reason.contains("keys must be String"))
        #expect(remedy.contains("[String: String]"))
    }

    @Test func requiredSelfRecursionIsRefused() throws {
        let error = try #require(throws: SchemaError.self) { try Endless.outputSchema }
        guard case .cannotDerive(let type, let reason, _) = error else { Issue.record("\(error)"); return }
        #expect(type == "Endless")
        #expect(reason.contains("at next:"))
    }

    @Test func tuplesAreRefused() throws {
        let error = try #require(throws: SchemaError.self) { try Pair.outputSchema }
        guard case .cannotDerive(_, let reason, _) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("fixed sequence of 2 elements"))
    }

    @Test func decodingNothingIsRefused() throws {
        let error = try #require(throws: SchemaError.self) { try Nothing.outputSchema }
        guard case .cannotDerive(_, let reason, _) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("reads nothing"))
    }
}
