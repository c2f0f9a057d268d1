import Testing
import PCRE2Kit

@Suite struct PCRE2KitTests {
    @Test func unanchoredSearch() throws {
        let re = try PCRE2Regex("[0-9]+")
        #expect(try re.matches("abc 42"))
        #expect(try !re.matches("abc"))
        #expect(try re.firstMatch(in: "ab 123 x") == 3..<6)
    }

    @Test func compileErrorHasOffset() {
        #expect(throws: PCRE2Error.self) { try PCRE2Regex("ab(c") }
        do {
            _ = try PCRE2Regex("ab[c")
            Issue.record("expected a compile error")
        } catch {
            guard case let .compile(pattern, offset, _, message) = error else { Issue.record("wrong case"); return }
            #expect(pattern == "ab[c")
            #expect(offset == 4)
            #expect(message.contains("missing terminating ]"))
        }
    }

    @Test func successiveMatchesAreByteOffsets() throws {
        let re = try PCRE2Regex("\\p{L}+")
        #expect(try re.allMatches(in: "héllo wörld") == [0..<6, 7..<13])
    }

    @Test func emptyMatchesStepForward() throws {
        let re = try PCRE2Regex("x*")
        #expect(try re.allMatches(in: "axxb") == [0..<0, 1..<3, 3..<3, 4..<4])
    }

    @Test func invalidUTF8IsAnError() throws {
        let re = try PCRE2Regex("a")
        let matcher = PCRE2Matcher(re)
        let bytes: [UInt8] = [0x61, 0xFF, 0x61]
        #expect(throws: PCRE2Error.invalidUTF8(offset: 1)) {
            try bytes.withUnsafeBufferPointer { try matcher.forEachMatch(in: $0) { _ in } }
        }
    }

    @Test func unicodeProperties() throws {
        let re = try PCRE2Regex("^\\w+$")
        #expect(try re.matches("ßüñ"))
        let ascii = try PCRE2Regex("^\\w+$", options: [.utf])
        #expect(try !ascii.matches("ßüñ"))
    }
}
