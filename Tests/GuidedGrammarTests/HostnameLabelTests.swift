import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Host name labels up to RFC 1123's 63 characters, with or without hyphens, in the `hostname` grammar, in
/// the domain of `email`, and in the validator, which must agree on every case (issue 26: labels of
/// 33–63 characters without hyphens were refused by the grammar).
@Suite struct HostnameLabelTests {
    static let alnum = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// A label of `n` letters and digits, varied so no single repeated byte hides a counting bug.
    static func label(_ n: Int) -> String { String((0..<n).map { alnum[$0 % alnum.count] }) }

    /// `n` characters with a hyphen at every even inner place: "a-c-e…", ending in a letter or digit.
    static func hyphenated(_ n: Int) -> String {
        String((0..<n).map { $0 % 2 == 1 && $0 != n - 1 ? "-" : alnum[$0 % alnum.count] })
    }

    static let accepted = [
        label(33), label(63), label(63) + ".com", "a." + label(63) + "." + label(63),
        hyphenated(33), hyphenated(63), "a--b", "a-b-c-d", "ab-c", "a-b", label(29) + ".b.c.d.e.f.g.h",
    ]
    static let rejected = [
        label(64), label(64) + ".com", hyphenated(63) + "a", "-" + label(33), label(33) + "-", "ab--c", "a---------b", "xn--abc",
        "a..b", "", label(30) + ".b.c.d",
    ]

    static func grammar(_ format: String) throws -> Grammar {
        try JSONSchemaCompiler.compile(text: #"{"type":"string","format":"\#(format)"}"#)
    }

    @Test func hostnameGrammarCountsCharacters() throws {
        let g = try Self.grammar("hostname")
        for host in Self.accepted { #expect(JSONSchemaTestSupport.accepts(g, "\"\(host)\""), "should accept \(host)") }
        for host in Self.rejected { #expect(!JSONSchemaTestSupport.accepts(g, "\"\(host)\""), "should reject \(host)") }
    }

    @Test func emailDomainUsesTheSameLabels() throws {
        let g = try Self.grammar("email")
        for host in Self.accepted { #expect(JSONSchemaTestSupport.accepts(g, "\"me@\(host)\""), "should accept me@\(host)") }
        for host in Self.rejected { #expect(!JSONSchemaTestSupport.accepts(g, "\"me@\(host)\""), "should reject me@\(host)") }
    }

    /// The validator holds the full rule; the grammar is a subset of it, equal on these cases except the
    /// four-or-more-label names of long labels and `ab--c`-style labels, which the grammar leaves out.
    @Test func validatorAgrees() throws {
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(#"{"type":"string","format":"hostname"}"#),
                                            options: .init(formatAssertion: true))
        for host in Self.accepted { #expect(validator.isValid(.string(host)), "validator should accept \(host)") }
        let rejected = [Self.label(64), Self.label(64) + ".com", Self.hyphenated(63) + "a", "-" + Self.label(33),
                        Self.label(33) + "-", "ab--c", "a---------b", "a..b", ""]
        for host in rejected {
            #expect(!validator.isValid(.string(host)), "validator should reject \(host)")
        }
        #expect(validator.isValid(.string(Self.label(30) + ".b.c.d")))  // valid, beyond the grammar's subset
    }
}
