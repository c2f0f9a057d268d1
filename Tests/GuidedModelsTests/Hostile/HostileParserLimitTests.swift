import Testing
@testable import GuidedModels

/// The stream parsers' memory bound, measured by the byte counters they expose: whatever arrives, they
/// hold at most `maximumEventBytes`, and once over it they stay failed.
@Suite("Client: stream parser limits")
struct HostileParserLimitTests {
    @Test func tenMegabyteLineIsCutAtTheLimit() {
        var parser = ServerSentEventParser(maximumEventBytes: 4 << 20)
        var events: [ServerSentEvent] = []
        events += parser.feed(Array("data: ".utf8))
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<10 { events += parser.feed(piece) }
        events += parser.feed(Array("\n\ndata: {}\n\n".utf8))
        #expect(parser.overflowed)
        #expect(events.isEmpty)
        #expect(parser.largestBufferedBytes <= 4 << 20)
        #expect(parser.largestBufferedBytes > 4 << 20 - 1024)
    }

    @Test func manyDataLinesCountTogether() {
        var parser = ServerSentEventParser(maximumEventBytes: 1000)
        let line = Array("data: \(String(repeating: "x", count: 90))\n".utf8)
        var events: [ServerSentEvent] = []
        for _ in 0..<20 { events += parser.feed(line) }
        events += parser.feed(Array("\n".utf8))
        #expect(parser.overflowed)
        #expect(events.isEmpty)
        #expect(parser.largestBufferedBytes <= 1000)
    }

    @Test func eventsUnderTheLimitPass() {
        var parser = ServerSentEventParser(maximumEventBytes: 100)
        let events = parser.feed(Array("data: \(String(repeating: "x", count: 80))\n\n".utf8))
        #expect(!parser.overflowed)
        #expect(events.map(\.data.count) == [80])
    }

    @Test func invalidUTF8IsFlaggedNotHidden() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("data: a".utf8) + [0xFF] + Array("b\n\ndata: ok\n\n".utf8))
        #expect(events.map(\.hadInvalidUTF8) == [true, false])
        #expect(events.first?.data == "a\u{FFFD}b")
    }

    @Test func ndjsonLineIsCutAtTheLimit() {
        var lines = LineSplitter(maximumLineBytes: 1000)
        #expect(lines.feed(Array(repeating: UInt8(ascii: "a"), count: 999) + [0x0A]).count == 1)
        let out = lines.feed(Array(repeating: UInt8(ascii: "a"), count: 5000) + [0x0A])
        #expect(out.isEmpty)
        #expect(lines.overflowed)
        #expect(lines.feed(Array("{}\n".utf8)).isEmpty)
    }
}
