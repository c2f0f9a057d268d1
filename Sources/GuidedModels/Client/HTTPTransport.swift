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
/// over. Its state is a `Mutex`, so it is `Sendable` without `@unchecked`.
final class HTTPStreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation

    init(continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        var headers: [String: String] = [:]
        var status = 0
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for (k, v) in http.allHeaderFields {
                if let name = k as? String, let value = v as? String { headers[name.lowercased()] = value }
            }
        }
        continuation.yield(.head(HTTPResponseHead(status: status, headers: headers)))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
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
    /// that iterates) cancels the URLSession task.
    static func stream(_ request: URLRequest, timeouts: ChatTimeouts) -> AsyncThrowingStream<HTTPStreamPart, any Error> {
        AsyncThrowingStream { continuation in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeouts.idle
            configuration.timeoutIntervalForResource = timeouts.total
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            let delegate = HTTPStreamDelegate(continuation: continuation)
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { termination in
                if case .cancelled = termination {
                    task.cancel()
                    session.invalidateAndCancel()
                }
            }
            task.resume()
        }
    }

    /// Reads a whole response; bodies over `limit` bytes are an error (the task is cancelled).
    static func collect(_ request: URLRequest, timeouts: ChatTimeouts, limit: Int)
        async throws(ChatClientError) -> (HTTPResponseHead, [UInt8])
    {
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        do {
            for try await part in stream(request, timeouts: timeouts) {
                switch part {
                case .head(let h): head = h
                case .bytes(let d):
                    body.append(contentsOf: d)
                    if body.count > limit {
                        throw ChatClientError.malformedResponse(reason: "response body larger than \(limit) bytes", body: "")
                    }
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
