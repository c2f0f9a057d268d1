import Foundation
import Testing
@testable import GuidedSchema

@Suite struct DecoderTests {
    struct Address: Decodable, Equatable {
        var city: String
        var zip: String?
    }

    enum Color: String, Decodable, Equatable { case red, green }

    struct Person: Decodable, Equatable {
        var name: String
        var age: Int
        var score: Double
        var active: Bool
        var nickname: String?
        var address: Address
        var tags: [String]
        var colors: [Color]
        var matrix: [[Int]]
        var extra: [String: Int]
        var born: Date
        var homepage: URL
        var id: UUID
        var balance: Decimal
    }

    @Test func decodesNestedTypesAndFoundationValues() throws {
        let text = """
            {"name": "Ada", "age": 36, "score": 9.5, "active": true, "nickname": null,
             "address": {"city": "London"}, "tags": ["a", "b"], "colors": ["red", "green"],
             "matrix": [[1, 2], [], [3]], "extra": {"x": 1, "y": 2},
             "born": "2001-01-02T00:00:30Z", "homepage": "https://example.com/ada",
             "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "balance": 12345678901234567.891}
            """
        let p = try JSONValueDecoder().decode(Person.self, from: text)
        #expect(p.name == "Ada" && p.age == 36 && p.score == 9.5 && p.active)
        #expect(p.nickname == nil)
        #expect(p.address == Address(city: "London", zip: nil))
        #expect(p.tags == ["a", "b"] && p.colors == [.red, .green] && p.matrix == [[1, 2], [], [3]])
        #expect(p.extra == ["x": 1, "y": 2])
        #expect(p.born == Date(timeIntervalSinceReferenceDate: 86_430))
        #expect(p.homepage == URL(string: "https://example.com/ada"))
        #expect(p.id == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(p.balance == Decimal(string: "12345678901234567.891", locale: Locale(identifier: "en_US_POSIX")))
        #expect(p.balance.description == "12345678901234567.891")
    }

    struct Envelope: Codable {
        var kind: String
        var payload: JSONValue
    }

    @Test func jsonValueMembersKeepOrderAndLiterals() throws {
        let e = try JSONValueDecoder().decode(Envelope.self, from: #"{"kind": "k", "payload": {"z": 1.50, "a": [null, true]}}"#)
        #expect(e.payload.serialized() == #"{"z":1.50,"a":[null,true]}"#)
        let viaFoundation = try JSONDecoder().decode(Envelope.self, from: Data(#"{"kind": "k", "payload": {"z": 2, "a": "x"}}"#.utf8))
        #expect(viaFoundation.payload == ["z": 2, "a": "x"])
    }

    @Test func datesWithFractionalSecondsAndOffsets() throws {
        let d = try JSONValueDecoder().decode([Date].self, from: #"["2024-02-29T12:00:00.250+01:00", "2024-02-29T11:00:00Z"]"#)
        #expect(d[0].timeIntervalSince(d[1]) == 0.25)
    }

    @Test func decimalsAreExactOrRefused() throws {
        #expect(try JSONValueDecoder().decode(Decimal.self, from: "0.1").description == "0.1")
        #expect(try JSONValueDecoder().decode(Decimal.self, from: "-12.50e3").description == "-12500")
        do {
            _ = try JSONValueDecoder().decode([Decimal].self, from: "[1, 1.234567890123456789012345678901234567891]")
            Issue.record("rounded a 40-digit decimal")
        } catch let error as DecodingError {
            #expect(DecoderTests.debugDescription(error) == "at /1: 1.234567890123456789012345678901234567891 cannot be held exactly by Decimal")
        }
    }

    @Test func integersAreExact() throws {
        #expect(try JSONValueDecoder().decode(Int.self, from: "1e2") == 100)
        #expect(try JSONValueDecoder().decode(UInt64.self, from: "18446744073709551615") == UInt64.max)
        #expect(try JSONValueDecoder().decode(Int8.self, from: "-128") == -128)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int8.self, from: "128") }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: "1.5") }
    }

    @Test(arguments: [
        (#"{"city": 5}"#, "at /city: expected a string, found number 5"),
        (#"{"zip": "1"}"#, "at the root: missing key \"city\""),
        ("[]", "at the root: expected an object, found an array"),
    ])
    func errorsNameTheCodingPath(text: String, message: String) {
        do {
            _ = try JSONValueDecoder().decode(Address.self, from: text)
            Issue.record("decoded \(text)")
        } catch let error as DecodingError {
            #expect(DecoderTests.debugDescription(error) == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func nestedErrorPaths() {
        do {
            _ = try JSONValueDecoder().decode([String: [Address]].self, from: #"{"home": [{"city": "A"}, {"city": null}]}"#)
            Issue.record("decoded")
        } catch let error as DecodingError {
            #expect(DecoderTests.debugDescription(error) == "at /home/1/city: expected a string, found null")
            guard case .valueNotFound(_, let context) = error else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["home", "Index 1", "city"] || context.codingPath.map(\.stringValue) == ["home", "1", "city"])
        } catch {
            Issue.record("unexpected \(error)")
        }
        do {
            _ = try JSONValueDecoder().decode([Color].self, from: #"["red", "blue"]"#)
            Issue.record("decoded")
        } catch {
            #expect("\(error)".contains("blue"))
        }
    }

    static func debugDescription(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): return c.debugDescription
        @unknown default: return ""
        }
    }
}
