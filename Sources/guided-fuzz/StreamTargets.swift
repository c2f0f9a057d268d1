import GuidedGrammar
import GuidedModels

extension FuzzTarget {
    /// Server-sent events: the same bytes fed whole and in pieces give the same events.
    static let serverSentEvents = FuzzTarget(name: "sse", summary: "server-sent event parser, whole against split", maxLength: 4096) { bytes in
        var whole = ServerSentEventParser()
        let all = whole.feed(bytes)
        var pieces = ServerSentEventParser()
        var split: [ServerSentEvent] = []
        var i = 0, step = 1
        while i < bytes.count {
            let end = min(bytes.count, i + step)
            split += pieces.feed(bytes[i..<end])
            i = end
            step = step % 7 + 1
        }
        if all != split { FuzzFinding.report("events differ when the stream is split (\(all.count) vs \(split.count))") }
    }

    /// The JSON stream monitor of the server fallback, with and without a grammar's recognizer.
    static let streamMonitor = FuzzTarget(name: "stream-monitor", summary: "JSON stream monitor (server fallback)", maxLength: 4096) { bytes in
        var plain = JSONStreamMonitor(recognizer: nil)
        _ = plain.feed(bytes)
        let grammar = FuzzStreamGrammar.grammar
        var guided = JSONStreamMonitor(recognizer: try? ReferenceRecognizer(grammar))
        for b in bytes { _ = guided.feed(CollectionOfOne(b)) }
    }
}

enum FuzzStreamGrammar {
    /// `{"a": integer, "b": [string...]}` in declared order: enough structure for early aborts.
    static let grammar: Grammar = {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"array","items":{"type":"string"}}},"required":["a"]}"#
        return try! JSONSchemaCompiler.compile(text: schema)
    }()
}
