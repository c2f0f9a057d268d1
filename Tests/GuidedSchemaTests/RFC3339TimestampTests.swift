import Foundation
import Testing
import GuidedSchema

/// `RFC3339Timestamp` against instants computed independently (Python's `datetime`, proleptic Gregorian),
/// and the texts it must refuse: exactly those `format: date-time` refuses.
@Suite struct RFC3339TimestampTests {
    static let instants: [(String, TimeInterval)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("2024-02-29T12:00:00.250+01:00", 1_709_204_400.25),
        ("2024-02-29t12:00:00.250+01:00", 1_709_204_400.25),
        ("3320-11-19t16:03:56.3Z", 42_629_817_836.3),
        ("3320-11-19T16:03:56.3z", 42_629_817_836.3),
        ("1600-02-29T23:59:59-23:59", -11_670_825_661),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("0000-01-01T00:00:00Z", -62_167_219_200),
        ("0000-03-01T00:00:00+00:00", -62_162_035_200),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("2000-01-01T00:00:00.123456789012345678901234567890Z", 946_684_800.123456789),
        // A leap second is one second past 23:59:59 (Date cannot hold it).
        ("2016-12-31T23:59:60Z", 1_483_228_800),
        ("2016-12-31", 1_483_142_400),
    ]

    @Test func readsTheInstant() {
        for (text, seconds) in Self.instants {
            let date = RFC3339Timestamp.date(from: text)
            #expect(date.map { abs($0.timeIntervalSince1970 - seconds) < 1e-6 } == true, "\(text) → \(String(describing: date?.timeIntervalSince1970))")
        }
    }

    @Test func refusesWhatDateTimeRefuses() {
        for text in ["", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T24:00:00Z",
                     "2024-01-01T00:00:00", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0100", "2024-01-01T12:00:60Z",
                     "2024-1-01T00:00:00Z", "２０２４-01-01T00:00:00Z", "2024-01-01x", "20240101"] {
            #expect(RFC3339Timestamp.date(from: text) == nil, "\(text)")
        }
    }

    struct Stamp: Decodable { let at: Date }

    @Test func jsonDecoderStrategyMatchesTheDecoder() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .rfc3339
        let text = #"{"at":"2024-02-29t12:00:00.250z"}"#
        let viaFoundation = try decoder.decode(Stamp.self, from: Data(text.utf8))
        let viaPackage = try JSONValueDecoder().decode(Stamp.self, from: text)
        #expect(viaFoundation.at == viaPackage.at)
        #expect(viaPackage.at.timeIntervalSince1970 == 1_709_208_000.25)
        #expect(throws: DecodingError.self) { try decoder.decode(Stamp.self, from: Data(#"{"at":"yesterday"}"#.utf8)) }
    }

    @Test func decoderErrorNamesTheValue() {
        do {
            _ = try JSONValueDecoder().decode(Stamp.self, from: #"{"at":"2024-02-30T00:00:00Z"}"#)
            Issue.record("decoded an impossible date")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription == #"at /at: string "2024-02-30T00:00:00Z" is not an RFC 3339 date-time"#)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
