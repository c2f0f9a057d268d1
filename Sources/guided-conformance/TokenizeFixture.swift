import Foundation
import GuidedSchema

/// One line of the fixtures file: a text and its reference ids under the chosen key.
struct TokenizeFixture {
    let text: String
    let ids: [Int]

    static func load(path: String, key: String) throws(TokenizeInputError) -> [TokenizeFixture] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TokenizeInputError(message: "\(path): cannot read fixtures file")
        }
        var result: [TokenizeFixture] = []
        var lineNumber = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { continue }
            let value: JSONValue
            do { value = try JSONParser.parse(bytes: Array(line)) } catch {
                throw TokenizeInputError(message: "\(path):\(lineNumber): \(error)")
            }
            guard let text = value["text"]?.stringValue else {
                throw TokenizeInputError(message: "\(path):\(lineNumber): no \"text\" string")
            }
            guard let list = value[key]?.arrayValue else {
                throw TokenizeInputError(message: "\(path):\(lineNumber): no reference ids under \"\(key)\"")
            }
            var ids: [Int] = []
            for item in list {
                guard let n = item.numberValue, let id = Int(n.text) else {
                    throw TokenizeInputError(message: "\(path):\(lineNumber): \"\(key)\" holds a non-integer id")
                }
                ids.append(id)
            }
            result.append(TokenizeFixture(text: text, ids: ids))
        }
        return result
    }

    /// The text shortened and escaped for one line of output.
    static func preview(_ text: String) -> String {
        var s = String(text.unicodeScalars.prefix(80).map { Character($0) })
        if text.unicodeScalars.count > 80 { s += "…" }
        return s.debugDescription
    }
}
