import Foundation
import GuidedDecoding
import Synchronization

/// The example type the demo generates: a recipe card, derived from its `Decodable` conformance, with
/// guides that keep each field short.
struct DemoRecipe: Decodable, Sendable, GuidedGenerable {
    enum Course: String, Decodable, Sendable, SchemaEnumeration { case starter, main, dessert }
    let title: String
    let course: Course
    let servings: Int
    let ingredients: [String]
    let vegetarian: Bool

    static let schemaDescription: String? = "A recipe card"
    static var schemaHints: [PropertyHint] {
        [PropertyHint("title", description: "Name of the dish", guides: .maxLength(40)),
         PropertyHint("servings", guides: .range(1...12)),
         PropertyHint("ingredients", guides: .count(2...4), .element(.maxLength(24)))]
    }
}

/// Runs async work to completion from the synchronous command entry points.
enum DemoBlocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let r: Result<T, any Error>
            do { r = .success(try await body()) } catch { r = .failure(error) }
            result.withLock { $0 = r }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

/// Validity of a generated text under a schema: parses as JSON and has no violations.
func demoIsValid(_ text: String, _ validator: JSONSchemaValidator) -> Bool {
    guard let value = try? JSONParser.parse(text) else { return false }
    return validator.isValid(value)
}

func demoShort(_ text: String, _ limit: Int = 110) -> String {
    let flat = text.replacingOccurrences(of: "\n", with: " ")
    return flat.count <= limit ? flat : String(flat.prefix(limit)) + "..."
}
