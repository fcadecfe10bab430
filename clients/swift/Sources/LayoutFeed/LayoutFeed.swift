import Foundation
public import LayoutKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Follows one page through a layout-worker gateway: its record, then its change sets (server-sent events over
/// URLSession), each applied with LayoutKit's `ChangeSetApplier`. A dropped stream is opened again with the hash
/// held as `Last-Event-ID` (the gateway sends the change sets missed); a change set whose base is not the record held
/// makes the feed fetch the record. What a renderer iterates:
///
///     for try await layout in LayoutFeed(gateway: url, key: "home").records() {
///         let record = try Layout.Record(layout.bytes)   // then diff or reload the collection view
///     }
public struct LayoutFeed: Sendable {
    /// `GET` gives the record; `/changes` the stream.
    public let url: URL

    public init(gateway: URL, key: String) {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let escaped = key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key
        url = URL(string: gateway.absoluteString.trimmingCharacters(in: ["/"]) + "/v1/layouts/" + escaped)!
    }

    /// A record the page shows.
    public struct Record: Sendable, Equatable {
        public var bytes: [UInt8]
        public var hash: ContentHash
    }

    /// Every record the page shows, as it changes; reconnects after `retry` when the stream drops. Ends (throwing)
    /// only on a change set that cannot be applied for another reason than a stale base (a bug to report), or when
    /// the consumer stops iterating.
    public func records(retry: Duration = .seconds(2)) -> AsyncThrowingStream<Record, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var state = FeedState()
                while !Task.isCancelled {
                    do {
                        try await follow(&state) { continuation.yield($0) }
                    } catch is CancellationError {
                        break
                    } catch let error as ChangeSetError {
                        continuation.finish(throwing: error)
                        return
                    } catch {
                        // A network error: open the stream again after the pause.
                    }
                    try? await Task.sleep(for: retry)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One connection to the stream, until it ends.
    func follow(_ state: inout FeedState, _ emit: (Record) -> Void) async throws {
        var request = URLRequest(url: url.appendingPathComponent("changes"))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let hash = state.hash { request.setValue(hash.description, forHTTPHeaderField: "Last-Event-ID") }
        request.timeoutInterval = 3_600
        let (chunks, delegate) = ChunkDelegate.stream()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        var parser = ServerSentEvents()
        try await withTaskCancellationHandler {
            for await chunk in chunks {
                for event in parser.feed(chunk) {
                    switch try state.take(event) {
                    case .show(let bytes, let hash): emit(Record(bytes: bytes, hash: hash))
                    case .none: break
                    case .fetchRecord:
                        if case .show(let bytes, let hash) = state.show(try await fetchRecord(holding: state.hash)) {
                            emit(Record(bytes: bytes, hash: hash))
                        }
                    }
                }
            }
        } onCancel: {
            task.cancel()
        }
        try Task.checkCancellation()
    }

    /// The record, with GET.
    func fetchRecord(holding hash: ContentHash?) async throws -> [UInt8] {
        let request = URLRequest(url: url)
        let (data, status): (Data, Int) = try await withCheckedThrowingContinuation { c in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return c.resume(throwing: error) }
                c.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
            }.resume()
        }
        guard status == 200 else { throw URLError(.badServerResponse) }
        return Array(data)
    }
}

/// Hands a data task's bytes on as they arrive.
final class ChunkDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let continuation: AsyncStream<Data>.Continuation

    init(_ continuation: AsyncStream<Data>.Continuation) { self.continuation = continuation }

    static func stream() -> (AsyncStream<Data>, ChunkDelegate) {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        return (stream, ChunkDelegate(continuation))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let ok = (response as? HTTPURLResponse)?.statusCode == 200
        completionHandler(ok ? .allow : .cancel)
        if !ok { continuation.finish() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish()
    }
}
