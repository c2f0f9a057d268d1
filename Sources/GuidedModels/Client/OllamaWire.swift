import Foundation
import GuidedSchema

/// Ollama's native `/api/chat` wire format: a JSON body out; back, one JSON object (or, when streaming,
/// newline-delimited JSON objects ending with `"done": true`). Its tool-call arguments are JSON objects,
/// not JSON text, and it reports token counts as `prompt_eval_count` / `eval_count`.
enum OllamaWire {
    /// A message in Ollama's form.
    static func message(_ m: ChatMessage) -> JSONValue {
        var o = JSONObject()
        o["role"] = .string(m.role.rawValue)
        o["content"] = .string(m.content ?? "")
        if !m.toolCalls.isEmpty {
            o["tool_calls"] = .array(m.toolCalls.map { call in
                // Arguments the model wrote as invalid JSON are passed on as text rather than dropped.
                let args = (try? JSONParser.parse(call.arguments)) ?? .string(call.arguments)
                return ["function": ["name": .string(call.name), "arguments": args]]
            })
        }
        return .object(o)
    }

    /// One response object (the whole non-streaming answer, or one line of a stream) as a chunk.
    static func chunk(_ document: JSONValue) throws(ChatClientError) -> (chunk: ChatStreamChunk, done: Bool) {
        if let envelope = ServerErrorEnvelope(document: document) {
            throw ResponseClassifier.classify(envelope: envelope, failure: nil)
        }
        let r = WireReader(context: "Ollama response")
        guard case .object(let o) = document else { throw r.fail("not a JSON object") }
        let m = try r.object(o, "message") ?? JSONObject()
        var calls: [ToolCallDelta] = []
        for (k, raw) in (try r.array(m, "tool_calls") ?? []).enumerated() {
            guard case .object(let call) = raw else { throw r.fail("tool call \(k) is not an object") }
            let f = try r.object(call, "function") ?? JSONObject()
            let arguments: String?
            switch f["arguments"] {
            case nil, .null?: arguments = nil
            case .string(let s)?: arguments = s
            case let v?: arguments = v.serialized()
            }
            calls.append(ToolCallDelta(index: try r.int(f, "index"), id: try r.string(call, "id"), type: "function",
                                       name: try r.string(f, "name"), arguments: arguments))
        }
        let done: Bool
        switch o["done"] {
        case .bool(let b)?: done = b
        case nil, .null?: done = false
        default: throw r.fail("`done` is not a boolean")
        }
        var usage: TokenUsage?
        if done, let p = try r.int(o, "prompt_eval_count"), let c = try r.int(o, "eval_count") {
            usage = TokenUsage(promptTokens: p, completionTokens: c, totalTokens: p + c)
        }
        let finish = done ? FinishReason(rawValue: try r.string(o, "done_reason") ?? "stop") : nil
        let reasoning = try r.string(m, "thinking")
        let delta = ChoiceDelta(index: 0, role: try r.string(m, "role").map(ChatRole.init(rawValue:)),
                                content: try r.string(m, "content"), reasoning: reasoning, toolCalls: calls,
                                finishReason: finish)
        return (ChatStreamChunk(model: try r.string(o, "model"), choices: [delta], usage: usage), done)
    }
}

/// Splits a byte stream into LF-terminated lines (a CR before the LF is dropped), for NDJSON.
///
/// A line longer than `maximumLineBytes` sets `overflowed`; the splitter then drops all further input, so
/// an endless line costs at most the limit.
struct LineSplitter {
    private var pending: [UInt8] = []
    let maximumLineBytes: Int
    private(set) var overflowed = false

    init(maximumLineBytes: Int = ChatLimits().maximumEventBytes) {
        self.maximumLineBytes = max(1, maximumLineBytes)
    }

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for b in bytes {
            if overflowed { break }
            if b != 0x0A, pending.count >= maximumLineBytes {
                overflowed = true
                pending.removeAll()
                break
            }
            if b == 0x0A {
                if pending.last == 0x0D { pending.removeLast() }
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(b)
            }
        }
        return lines
    }

    /// The unterminated last line, if any (a final object without its newline is still whole JSON).
    mutating func finish() -> [UInt8]? {
        defer { pending.removeAll() }
        return pending.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) ? nil : pending
    }
}
