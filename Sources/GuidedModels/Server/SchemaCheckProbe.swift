import Foundation
import GuidedSchema

/// One probe of the `schema-check` battery: a schema that exercises one keyword, and prompts that invite
/// the model to break it. Stored as `{"keyword", "schema", "prompts"}` files (Corpora/probes/*.json).
public struct SchemaCheckProbe: Sendable, Equatable {
    /// The file name without `.json`.
    public var name: String
    public var keyword: String
    public var schema: JSONValue
    public var prompts: [String]

    public init(name: String, keyword: String, schema: JSONValue, prompts: [String]) {
        self.name = name
        self.keyword = keyword
        self.schema = schema
        self.prompts = prompts
    }

    /// Every `*.json` probe in `directory`, in file-name order.
    public static func load(directory: URL) throws(SchemaCheckError) -> [SchemaCheckProbe] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw .probes("cannot read the probe directory \(directory.path): \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw .probes("no *.json probes in \(directory.path)") }
        var probes: [SchemaCheckProbe] = []
        for file in names {
            let path = directory.appendingPathComponent(file).path
            guard let data = FileManager.default.contents(atPath: path) else { throw .probes("cannot read \(path)") }
            let document: JSONValue
            do {
                document = try JSONParser.parse(bytes: Array(data))
            } catch {
                throw .probes("\(path): \(error)")
            }
            guard let keyword = document["keyword"]?.stringValue, let schema = document["schema"],
                  let prompts = document["prompts"]?.arrayValue?.compactMap(\.stringValue), !prompts.isEmpty
            else { throw .probes("\(path): a probe needs a string `keyword`, a `schema` and non-empty string `prompts`") }
            probes.append(SchemaCheckProbe(name: String(file.dropLast(5)), keyword: keyword, schema: schema, prompts: prompts))
        }
        return probes
    }
}

/// Why `schema-check` could not run or could not probe (exit status 2).
public enum SchemaCheckError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line is wrong; the message says how.
    case usage(String)
    /// The probe battery cannot be read.
    case probes(String)
    /// The server could not be reached or refused even a plain request.
    case unreachable(String)

    public var description: String {
        switch self {
        case .usage(let s): return "usage error: \(s)\n" + SchemaCheckOptions.usage
        case .probes(let s): return "probe battery: \(s)"
        case .unreachable(let s): return "could not probe: \(s)"
        }
    }
}
