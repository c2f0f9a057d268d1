import GuidedGrammar

/// Watches streamed text byte by byte and says, at the first impossible byte, that the output can no
/// longer fit the schema, so the caller can cancel the stream instead of paying for the rest.
///
/// Leading text: models often open with whitespace or a Markdown fence (```` ```json ```` + newline) even
/// when told not to. The monitor skips leading whitespace and at most one fence line (three backticks, an
/// optional language tag of letters, then a newline) before the JSON value; any other leading text is fed
/// to the recognizer and so rejected. The value ends at the first byte the recognizer refuses once it can
/// terminate: what follows (a closing fence, an explanation) is ignored, and the stream can be stopped.
///
/// Without a recognizer (the schema uses a keyword the compiler refuses to enforce exactly) the monitor
/// only collects the value text; the validator still judges it at the end, there is just no early abort.
public struct JSONStreamMonitor: Sendable {
    public enum State: Sendable, Equatable {
        /// Still reading the value (or the leading whitespace and fence before it).
        case reading
        /// The value is complete and nothing more of it can follow (the next byte was refused, or the
        /// grammar allows nothing more): the rest of the stream is not needed.
        case complete
        /// `offset` (into the whole streamed text) is the first byte no value of the schema can have.
        case impossible(offset: Int)
    }

    private enum Lead: Sendable { case whitespace, fence, value }

    private var recognizer: (any StreamRecognizer)?
    /// Whether a recognizer was given (kept apart so that no second copy of the recognizer is held: a
    /// shared copy would make the first fed byte duplicate the matcher's buffers).
    private let hasRecognizer: Bool
    private var lead: Lead = .whitespace
    private var fenceLine: [UInt8] = []
    private var fencesSkipped = 0
    public private(set) var state: State = .reading
    /// Bytes seen so far (all of them, leading text included).
    public private(set) var bytesSeen = 0
    /// The bytes of the value itself (no leading whitespace or fence, nothing after its end).
    public private(set) var valueBytes: [UInt8] = []

    /// `recognizer`: a fresh recognizer for the schema's grammar (`SchemaStreamRecognizer`, or a
    /// `ReferenceRecognizer` for grammars without member sets), or nil for "collect only".
    public init(recognizer: (any StreamRecognizer)?) {
        self.recognizer = recognizer
        hasRecognizer = recognizer != nil
    }

    /// Whether the monitor can abort early (it has a recognizer).
    public var canAbortEarly: Bool { hasRecognizer }

    /// The value is a complete sentence of the schema's grammar (always false without a recognizer).
    public var valueCanEnd: Bool { recognizer?.canTerminate ?? false }

    /// Feeds streamed bytes; returns the state after them. Once the state is no longer `.reading`, further
    /// bytes are only counted.
    @discardableResult
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> State {
        for b in bytes {
            defer { bytesSeen += 1 }
            guard state == .reading else { continue }
            switch lead {
            case .whitespace:
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { continue }
                if b == 0x60, fencesSkipped == 0 {
                    lead = .fence
                    fenceLine = [b]
                    continue
                }
                lead = .value
                accept(b)
            case .fence:
                fenceLine.append(b)
                if b == 0x0A {
                    lead = .whitespace
                    fencesSkipped += 1
                    continue
                }
                if !Self.isFencePrefix(fenceLine) {
                    // Not a fence after all: the backticks and what followed are the (impossible) value.
                    lead = .value
                    let line = fenceLine
                    let start = bytesSeen - (line.count - 1)
                    for (i, x) in line.enumerated() where state == .reading {
                        acceptAt(x, offset: start + i)
                    }
                }
            case .value:
                accept(b)
            }
        }
        return state
    }

    private mutating func accept(_ b: UInt8) { acceptAt(b, offset: bytesSeen) }

    private mutating func acceptAt(_ b: UInt8, offset: Int) {
        guard hasRecognizer else {
            valueBytes.append(b)
            return
        }
        // Mutated in place through `recognizer!` (a local copy would copy the matcher at every byte).
        if recognizer!.feed(b) {
            valueBytes.append(b)
            if recognizer!.nothingCanFollow() { state = .complete }
        } else {
            state = recognizer!.canTerminate ? .complete : .impossible(offset: offset)
        }
    }

    /// ```` ``` ```` then letters, digits, `-`, `+`, `_` (a language tag), up to 20 bytes.
    static func isFencePrefix(_ line: [UInt8]) -> Bool {
        guard line.count <= 20 else { return false }
        for (i, b) in line.enumerated() {
            if i < 3 {
                if b != 0x60 { return false }
                continue
            }
            let tagByte = (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                || b == 0x2D || b == 0x2B || b == 0x5F || b == 0x20 || b == 0x0D
            if !tagByte { return false }
        }
        return true
    }

    /// The value text when the stream ended without a recognizer: trailing whitespace and a closing fence
    /// removed. With a recognizer, the value bytes are exact already.
    public var finalValueBytes: [UInt8] {
        guard !hasRecognizer else { return valueBytes }
        var v = valueBytes[...]
        func trimSpace() { while let l = v.last, l == 0x20 || l == 0x0A || l == 0x0D || l == 0x09 { v = v.dropLast() } }
        trimSpace()
        if fencesSkipped > 0, v.count >= 3, v.suffix(3).allSatisfy({ $0 == 0x60 }) {
            v = v.dropLast(3)
            trimSpace()
        }
        return Array(v)
    }
}
