import Foundation
import GuidedSchema

/// Passed and total test counts, required and optional.
struct ValidateSuiteTally {
    var requiredPassed = 0, requiredTotal = 0
    var optionalPassed = 0, optionalTotal = 0

    mutating func add(_ o: ValidateSuiteTally) {
        requiredPassed += o.requiredPassed
        requiredTotal += o.requiredTotal
        optionalPassed += o.optionalPassed
        optionalTotal += o.optionalTotal
    }

    var summary: String {
        "required \(requiredPassed)/\(requiredTotal) passed; optional \(optionalPassed)/\(optionalTotal) passed"
    }
}

/// Runs one draft folder of the suite.
struct ValidateSuiteRunner {
    let draft: JSONSchemaDraft
    let registry: SchemaRegistry

    init(draft: JSONSchemaDraft, remotes: String) throws {
        self.draft = draft
        var registry = SchemaRegistry()
        if FileManager.default.fileExists(atPath: remotes) {
            try registry.registerDirectory(remotes, as: "http://localhost:1234/", defaultDraft: draft)
        }
        self.registry = registry
    }

    func run(folder: URL, onFailure: (String) -> Void) throws -> ValidateSuiteTally {
        var tally = ValidateSuiteTally()
        for relative in try ValidateSuiteRunner.jsonFiles(under: folder) {
            let optional = relative.hasPrefix("optional/")
            // Optional tests check optional behaviours: formats under optional/format/, and draft 7's content
            // keywords (optional/content.json) as assertions.
            let options = JSONSchemaValidator.Options(
                formatAssertion: relative.hasPrefix("optional/format/"), contentAssertion: optional)
            let url = folder.appendingPathComponent(relative)
            let groups = try ValidateSuiteRunner.load(url)
            for group in groups.arrayValue ?? [] {
                guard let schema = group["schema"], let tests = group["tests"]?.arrayValue else {
                    throw JSONSchemaError.unreadable(path: url.path, reason: "a group without schema or tests")
                }
                let validator = JSONSchemaValidator(schema: schema, defaultDraft: draft, registry: registry, options: options)
                for test in tests {
                    guard let data = test["data"], let expected = test["valid"]?.boolValue else {
                        throw JSONSchemaError.unreadable(path: url.path, reason: "a test without data or valid")
                    }
                    let passed = validator.isValid(data) == expected
                    if optional {
                        tally.optionalTotal += 1
                        if passed { tally.optionalPassed += 1 }
                    } else {
                        tally.requiredTotal += 1
                        if passed { tally.requiredPassed += 1 }
                    }
                    if !passed {
                        let name = "\(draft.suiteName)/\(relative): \(group["description"]?.stringValue ?? "?") / \(test["description"]?.stringValue ?? "?") (expected \(expected ? "valid" : "invalid"))"
                        onFailure(name)
                    }
                }
            }
        }
        return tally
    }

    /// Relative paths of the `.json` files under `folder`, sorted, `optional/` included.
    static func jsonFiles(under folder: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else {
            throw JSONSchemaError.unreadable(path: folder.path, reason: "not a directory")
        }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".json") { files.append(relative) }
        }
        return files.sorted()
    }

    static func load(_ url: URL) throws -> JSONValue {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw JSONSchemaError.unreadable(path: url.path, reason: "\(error)")
        }
        do { return try JSONParser.parse(bytes: [UInt8](data)) } catch {
            throw JSONSchemaError.unreadable(path: url.path, reason: error.description)
        }
    }
}
