import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Status and headers of a response (header names lower-cased).
struct HTTPResponseHead: Sendable {
    var status: Int
    var headers: [String: String]

    var isSuccess: Bool { (200..<300).contains(status) }
    var contentType: String { headers["content-type"]?.lowercased() ?? "" }
}

/// What the transport delivers: the head once, then body bytes as they arrive.
enum HTTPStreamPart: Sendable {
    case head(HTTPResponseHead)
    case bytes(Data)
}

/// Time limits of one HTTP exchange.
public struct ChatTimeouts: Sendable, Equatable {
    /// Longest silence between two pieces of data (also the wait for the response head).
    public var idle: TimeInterval
    /// Longest whole exchange.
    public var total: TimeInterval

    public init(idle: TimeInterval = 60, total: TimeInterval = 600) {
        self.idle = idle
        self.total = total
    }
}

/// Feeds a URLSession data task's callbacks into an `AsyncThrowingStream`.
///
/// This is what makes streaming incremental on Linux: swift-corelibs-foundation has no `bytes(for:)`, and
/// `data(for:)` returns only when the body is complete; the data delegate sees each piece as curl hands it
/// over. Its state is a `Mutex`, so it is `Sendable` without `@unchecked`. A body past
/// `maximumBodyBytes` cancels the task here, in the callback, so no more than one read beyond the limit
/// is ever queued for the consumer.
final class HTTPStreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation
    let watchdog: HTTPWatchdog
    let maximumBodyBytes: Int?
    /// The limit of a successful `application/json` body when `maximumBodyBytes` is nil (a stream request
    /// the server answers with one JSON document, which the reader holds whole): counted here, so the
    /// limit is met before any read-ahead limit however slow the reader.
    let maximumJSONBodyBytes: Int?
    let readAhead: ReadAheadCounter
    let maximumReadAheadBytes: Int
    /// Body bytes so far, and the limit in force: `maximumBodyBytes`, or `maximumJSONBodyBytes` once the
    /// head says the body is JSON.
    private let body: Mutex<(bytes: Int, limit: Int?)>

    init(continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation, watchdog: HTTPWatchdog,
         maximumBodyBytes: Int?, maximumJSONBodyBytes: Int? = nil, readAhead: ReadAheadCounter, maximumReadAheadBytes: Int) {
        self.continuation = continuation
        self.watchdog = watchdog
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumJSONBodyBytes = maximumJSONBodyBytes
        body = Mutex((bytes: 0, limit: maximumBodyBytes))
        self.readAhead = readAhead
        self.maximumReadAheadBytes = maximumReadAheadBytes
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        watchdog.touch()
        var headers: [String: String] = [:]
        var status = 0
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for (k, v) in http.allHeaderFields {
                if let name = k as? String, let value = v as? String { headers[name.lowercased()] = value }
            }
        }
        let head = HTTPResponseHead(status: status, headers: headers)
        if maximumBodyBytes == nil, let limit = maximumJSONBodyBytes, head.isSuccess, head.contentType.hasPrefix("application/json") {
            body.withLock { $0.limit = limit }
        }
        continuation.yield(.head(head))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        watchdog.touch()
        let limitPassed: Int? = body.withLock { b in
            b.bytes += data.count
            guard let limit = b.limit, b.bytes > limit else { return nil }
            return limit
        }
        if let limit = limitPassed {
            continuation.finish(throwing: ChatClientError.responseTooLarge(limit: limit))
            dataTask.cancel()
            return
        }
        if !readAhead.deliver(data.count, limit: maximumReadAheadBytes) {
            continuation.finish(throwing: ChatClientError.readAheadExceeded(limit: maximumReadAheadBytes))
            dataTask.cancel()
            return
        }
        continuation.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: ResponseClassifier.classify(urlError: error))
        } else {
            continuation.finish()
        }
        session.finishTasksAndInvalidate()
    }
}

enum HTTPTransport {
    /// Starts `request` on its own ephemeral session. Ending the iteration early (or cancelling the task
    /// that iterates) cancels the URLSession task; so does a passed timeout (the stream then throws
    /// `.timeout(failure: nil)` or `.deadlineExceeded`) and a body past `maximumBodyBytes`, or a successful
    /// JSON body past `maximumJSONBodyBytes` (`.responseTooLarge`), or a reader more than
    /// `maximumReadAheadBytes` behind (`.readAheadExceeded`).
    static func stream(_ request: URLRequest, timeouts: ChatTimeouts, maximumBodyBytes: Int? = nil, maximumJSONBodyBytes: Int? = nil,
                       maximumReadAheadBytes: Int = ChatLimits().maximumReadAheadBytes)
        -> AsyncThrowingMapSequence<AsyncThrowingStream<HTTPStreamPart, any Error>, HTTPStreamPart>
    {
        let readAhead = ReadAheadCounter()
        // The map runs as the reader takes each part: that is when its bytes stop counting as read-ahead.
        return AsyncThrowingStream { continuation in
            let configuration = URLSessionConfiguration.ephemeral
            // Backstops, later than the watchdog's limits so that its typed errors come first.
            configuration.timeoutIntervalForRequest = timeouts.idle * 2 + 1
            configuration.timeoutIntervalForResource = timeouts.total * 2 + 1
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            let watchdog = HTTPWatchdog()
            let delegate = HTTPStreamDelegate(continuation: continuation, watchdog: watchdog,
                                              maximumBodyBytes: maximumBodyBytes, maximumJSONBodyBytes: maximumJSONBodyBytes, readAhead: readAhead,
                                              maximumReadAheadBytes: maximumReadAheadBytes)
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            var timed = request
            timed.timeoutInterval = configuration.timeoutIntervalForRequest
            let task = session.dataTask(with: timed)
            let guardTask = Task {
                guard let fired = await watchdog.expiry(timeouts) else { return }
                continuation.finish(throwing: fired)
                task.cancel()
                session.invalidateAndCancel()
            }
            continuation.onTermination = { termination in
                guardTask.cancel()
                if case .cancelled = termination {
                    task.cancel()
                    session.invalidateAndCancel()
                }
            }
            task.resume()
        }.map { part in
            if case .bytes(let d) = part { try readAhead.take(d.count) }
            return part
        }
    }

    /// Reads a whole response; a body over `limit` bytes is `.responseTooLarge` (the task is cancelled).
    static func collect(_ request: URLRequest, timeouts: ChatTimeouts, limit: Int, maximumReadAheadBytes: Int)
        async throws(ChatClientError) -> (HTTPResponseHead, [UInt8])
    {
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        do {
            for try await part in stream(request, timeouts: timeouts, maximumBodyBytes: limit,
                                         maximumReadAheadBytes: maximumReadAheadBytes) {
                switch part {
                case .head(let h): head = h
                case .bytes(let d): body.append(contentsOf: d)
                }
            }
        } catch let e as ChatClientError {
            throw e
        } catch {
            throw ResponseClassifier.classify(urlError: error)
        }
        if Task.isCancelled { throw .cancelled }
        guard let head else { throw .transport(code: URLError.badServerResponse.rawValue, message: "no response") }
        return (head, body)
    }
}
