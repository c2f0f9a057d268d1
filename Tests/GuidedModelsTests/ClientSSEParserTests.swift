import Testing
@testable import GuidedModels

@Suite("Client: SSE parser")
struct ClientSSEParserTests {
    static func parse(_ chunks: [[UInt8]]) -> (events: [ServerSentEvent], cutOff: Bool, parser: ServerSentEventParser) {
        var p = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for c in chunks { events += p.feed(c) }
        let cut = p.finish()
        return (events, cut, p)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let input: [UInt8]
        let expected: [ServerSentEvent]
        var cutOff = false
        var testDescription: String { name }
    }

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    static let cases: [Case] = [
        Case(name: "space after colon", input: Array("data: {\"a\":1}\n\n".utf8),
             expected: [ServerSentEvent(data: "{\"a\":1}")]),
        Case(name: "no space after colon", input: Array("data:{\"a\":1}\n\n".utf8),
             expected: [ServerSentEvent(data: "{\"a\":1}")]),
        Case(name: "only one space stripped", input: Array("data:  x\n\n".utf8),
             expected: [ServerSentEvent(data: " x")]),
        Case(name: "CRLF", input: Array("data: a\r\n\r\ndata: b\r\n\r\n".utf8),
             expected: [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")]),
        Case(name: "CR alone", input: Array("data: a\r\rdata: b\r\r".utf8),
             expected: [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")]),
        Case(name: "mixed line ends", input: Array("data: a\r\ndata: b\rdata: c\n\r\n".utf8),
             expected: [ServerSentEvent(data: "a\nb\nc")]),
        Case(name: "multi-line data", input: Array("data: line1\ndata: line2\n\n".utf8),
             expected: [ServerSentEvent(data: "line1\nline2")]),
        Case(name: "comments ignored", input: Array(": ping\n\n: keep-alive\ndata: x\n\n".utf8),
             expected: [ServerSentEvent(data: "x")]),
        Case(name: "event id retry", input: Array("event: delta\nid: 42\nretry: 3000\ndata: x\n\ndata: y\n\n".utf8),
             expected: [ServerSentEvent(type: "delta", data: "x", lastEventID: "42"),
                        ServerSentEvent(type: "message", data: "y", lastEventID: "42")]),
        Case(name: "leading BOM", input: bom + Array("data: x\n\n".utf8), expected: [ServerSentEvent(data: "x")]),
        Case(name: "only the first BOM is stripped", input: bom + bom + Array("data: x\n\n".utf8),
             expected: []),
        Case(name: "field without colon", input: Array("data\n\ndata\ndata\n\n".utf8),
             expected: [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")]),
        Case(name: "blank line without data dispatches nothing", input: Array("event: x\n\n\n\ndata: y\n\n".utf8),
             expected: [ServerSentEvent(data: "y")]),
        Case(name: "unknown fields ignored", input: Array("foo: bar\ndata: y\n\n".utf8),
             expected: [ServerSentEvent(data: "y")]),
        Case(name: "id with NUL ignored", input: Array("id: a\u{0}b\ndata: y\n\n".utf8),
             expected: [ServerSentEvent(data: "y")]),
        Case(name: "unterminated event is discarded", input: Array("data: a\n\ndata: b\n".utf8),
             expected: [ServerSentEvent(data: "a")], cutOff: true),
        Case(name: "unterminated line is discarded", input: Array("data: a\n\ndata: b".utf8),
             expected: [ServerSentEvent(data: "a")], cutOff: true),
        Case(name: "UTF-8 content", input: Array("data: héllo ✓ 🙂\n\n".utf8),
             expected: [ServerSentEvent(data: "héllo ✓ 🙂")]),
    ]

    @Test(arguments: cases)
    func wholeInput(_ c: Case) {
        let r = Self.parse([c.input])
        #expect(r.events == c.expected)
        #expect(r.cutOff == c.cutOff)
    }

    /// The result must not depend on where the network splits the bytes: every split point, and every
    /// byte on its own.
    @Test(arguments: cases)
    func everySplitPoint(_ c: Case) {
        for i in 0...c.input.count {
            let r = Self.parse([Array(c.input[..<i]), Array(c.input[i...])])
            #expect(r.events == c.expected, "split at \(i)")
            #expect(r.cutOff == c.cutOff, "split at \(i)")
        }
        let single = Self.parse(c.input.map { [$0] })
        #expect(single.events == c.expected)
    }

    @Test func everyPairOfSplitPoints() {
        let input = Self.bom + Array(": ping\r\nevent: e\r\nid: 1\r\ndata: {\"x\":\r\ndata: 1}\r\n\r\ndata:[DONE]\r\r".utf8)
        let expected = [ServerSentEvent(type: "e", data: "{\"x\":\n1}", lastEventID: "1"),
                        ServerSentEvent(data: "[DONE]", lastEventID: "1")]
        for i in 0...input.count {
            for j in i...input.count {
                let r = Self.parse([Array(input[..<i]), Array(input[i..<j]), Array(input[j...])])
                #expect(r.events == expected, "split at \(i), \(j)")
            }
        }
    }

    @Test func retryAndComments() {
        var p = ServerSentEventParser()
        _ = p.feed(Array("retry: 2500\n: a\n:b\nretry: x1\n\n".utf8))
        #expect(p.reconnectionTime == 2500)
        #expect(p.commentCount == 2)
    }

    @Test func eventsArriveAsSoonAsTheirBlankLine() {
        var p = ServerSentEventParser()
        #expect(p.feed(Array("data: a\n".utf8)).isEmpty)
        #expect(p.feed(Array("\n".utf8)) == [ServerSentEvent(data: "a")])
        // A CR ends the line at once; the LF that may follow is not a second (blank) line.
        #expect(p.feed(Array("data: b\r".utf8)).isEmpty)
        #expect(p.feed(Array("\n".utf8)).isEmpty)
        #expect(p.feed(Array("\r\n".utf8)) == [ServerSentEvent(data: "b")])
    }
}
