import Foundation
import GuidedSchema

/// Turns the events of an SSE chat stream into chunks, and knows whether the stream ended properly.
struct ChatStreamDecoder {
    var accumulator = ChatStreamAccumulator()
    private(set) var sawDone = false
    private(set) var eventCount = 0

    /// A stream is complete after `[DONE]`, or when the server closed it after a finish reason (some
    /// servers never send `[DONE]`).
    var isComplete: Bool { sawDone || accumulator.hasFinishReason }

    /// The chunk an event carries; nil for `[DONE]` and anything after it. An error envelope (or an
    /// `event: error`) throws the server's error; data that is not JSON is a malformed response.
    mutating func handle(_ event: ServerSentEvent, head: HTTPResponseHead) throws(ChatClientError) -> ChatStreamChunk? {
        if sawDone { return nil }
        eventCount += 1
        if event.data.trimmingCharacters(in: .whitespaces) == "[DONE]" {
            sawDone = true
            return nil
        }
        let failure = HTTPFailure(status: head.status, headers: head.headers, body: Array(event.data.utf8))
        if event.hadInvalidUTF8 {
            throw .malformedResponse(reason: "event \(eventCount) is not valid UTF-8", body: event.data)
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(event.data)
        } catch {
            if event.type == "error" {
                throw .server(ServerErrorEnvelope(message: event.data, raw: .string(event.data)), failure: failure)
            }
            throw .malformedResponse(reason: "event \(eventCount) is not JSON (\(error))", body: event.data)
        }
        if let envelope = ServerErrorEnvelope(document: document) {
            throw ResponseClassifier.classify(envelope: envelope, failure: failure)
        }
        if event.type == "error" {
            throw .server(ServerErrorEnvelope(message: event.data, raw: document), failure: failure)
        }
        let chunk = try ChatStreamChunk(json: document)
        accumulator.add(chunk)
        return chunk
    }

    /// The chunk one NDJSON line of an Ollama stream carries; the line with `"done": true` ends the stream.
    mutating func handleOllamaLine(_ line: [UInt8], head: HTTPResponseHead) throws(ChatClientError) -> ChatStreamChunk? {
        if sawDone { return nil }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        eventCount += 1
        let failure = HTTPFailure(status: head.status, headers: head.headers, body: line)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: line)
        } catch {
            throw .malformedResponse(reason: "line \(eventCount) is not JSON (\(error))", body: failure.bodyText)
        }
        if let envelope = ServerErrorEnvelope(document: document) {
            throw ResponseClassifier.classify(envelope: envelope, failure: failure)
        }
        let (chunk, done) = try OllamaWire.chunk(document)
        accumulator.add(chunk)
        if done { sawDone = true }
        return chunk
    }
}
