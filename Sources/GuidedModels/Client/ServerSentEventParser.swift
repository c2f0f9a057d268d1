/// One dispatched Server-Sent Event.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event` field, `"message"` when the event did not name one.
    public var type: String
    /// The `data` lines joined by LF (the final LF removed).
    public var data: String
    /// The last event ID buffer at dispatch time (the spec keeps it across events).
    public var lastEventID: String
    /// The data bytes were not valid UTF-8 (`data` holds them with U+FFFD substituted, as the spec
    /// decodes). A JSON client refuses such an event rather than pass the substitutes on as text.
    public var hadInvalidUTF8: Bool

    public init(type: String = "message", data: String, lastEventID: String = "", hadInvalidUTF8: Bool = false) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.hadInvalidUTF8 = hadInvalidUTF8
    }
}

/// An incremental parser for `text/event-stream`, following the WHATWG HTML "Server-sent events"
/// interpretation rules.
///
/// It works on bytes, so a chunk boundary may fall anywhere (inside a UTF-8 sequence, between CR and LF):
/// only complete lines are decoded. Lines end at CRLF, LF or CR; a leading UTF-8 BOM is skipped once;
/// `:` lines are comments; the single space after `field:` is optional; `data` lines accumulate joined by
/// LF; `id` values containing NUL are ignored; `retry` takes only ASCII digits; an event is dispatched at
/// a blank line, and an event still open when the stream ends is discarded, as the spec says.
///
/// Memory is bounded: before each byte joins the current line, the line plus the current event's data
/// are below `maximumEventBytes` (a `data` line is copied into the event before the line is cleared, so
/// the peak is at most twice the limit). A stream that needs more (one endless line, an event of endless `data:` lines) sets `overflowed` and
/// the parser stays failed: it drops the rest of the input and dispatches nothing more.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: String = ""
    private var lastEventIDBuffer: String = ""
    private var afterCR = false
    private var atStreamStart = true
    private var bomMatched = 0

    /// The reconnection time the server asked for with `retry:`, in milliseconds.
    public private(set) var reconnectionTime: Int?
    /// Comments seen so far (`: ping` keep-alives), counted for transport diagnostics.
    public private(set) var commentCount = 0
    /// The most bytes of line plus event data, measured as each byte joins the line: never above
    /// `maximumEventBytes`.
    public private(set) var largestBufferedBytes = 0
    /// True once the input needed more than `maximumEventBytes` of buffer; nothing is parsed after that.
    public private(set) var overflowed = false
    public let maximumEventBytes: Int

    /// `maximumEventBytes` bounds the buffered line plus event data (default 4 MiB, `ChatLimits`'s default).
    public init(maximumEventBytes: Int = ChatLimits().maximumEventBytes) {
        self.maximumEventBytes = max(1, maximumEventBytes)
    }

    /// Feeds the next chunk of the stream and returns the events it completes, in order.
    public mutating func feed<S: Sequence<UInt8>>(_ bytes: S) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for b in bytes {
            if overflowed { break }
            if atStreamStart {
                // Strip one leading BOM (EF BB BF); a partial match that breaks off is kept as text.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if b == bom[bomMatched] {
                    bomMatched += 1
                    if bomMatched == 3 { atStreamStart = false }
                    continue
                }
                atStreamStart = false
                if bomMatched > 0 {
                    let pending = bom[0..<bomMatched]
                    bomMatched = 0
                    for p in pending { consume(p, into: &events) }
                }
            }
            consume(b, into: &events)
        }
        return events
    }

    /// Ends the stream. Returns true when an event was still open (data or fields without the closing
    /// blank line): the spec discards it, and callers may want to say so.
    public mutating func finish() -> Bool {
        let open = !line.isEmpty || hasData || !eventType.isEmpty
        line.removeAll()
        data.removeAll()
        hasData = false
        eventType = ""
        return open
    }

    private mutating func consume(_ b: UInt8, into events: inout [ServerSentEvent]) {
        switch b {
        case 0x0A:
            if afterCR { afterCR = false; return }  // LF of a CRLF pair: the line already ended at CR
            endLine(into: &events)
        case 0x0D:
            afterCR = true
            endLine(into: &events)
        default:
            afterCR = false
            let held = line.count + data.count
            guard held < maximumEventBytes else {
                overflowed = true
                line.removeAll()
                data.removeAll()
                hasData = false
                return
            }
            line.append(b)
            if held + 1 > largestBufferedBytes { largestBufferedBytes = held + 1 }
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            dispatch(into: &events)
            return
        }
        if line[0] == UInt8(ascii: ":") {
            commentCount += 1
            return
        }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == 0x20 { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            // The value is already counted in `line`; only the joining LF can pass the limit here.
            guard line.count + data.count < maximumEventBytes else {
                overflowed = true
                data.removeAll()
                hasData = false
                return
            }
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                var ms = 0
                for d in value {
                    let (m, o1) = ms.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(Int(d - 0x30))
                    if o1 || o2 { ms = Int.max; break }
                    ms = s
                }
                reconnectionTime = ms
            }
        default:
            break  // unknown fields are ignored
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
        }
        guard hasData else { return }
        if data.last == 0x0A { data.removeLast() }
        let valid = String(validating: data, as: UTF8.self)
        events.append(ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType,
            data: valid ?? String(decoding: data, as: UTF8.self),
            lastEventID: lastEventIDBuffer,
            hadInvalidUTF8: valid == nil))
    }
}
