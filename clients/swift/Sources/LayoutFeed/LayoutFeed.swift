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

    /// Follows the layout a row's `navigate` action leads to (a refinement, a sort, page 2): its `target` is the
    /// key, as it stands. The gateway answers it from a published page or, run with `--origin`, fetches and compiles
    /// that navigation state on request. nil for an action of another kind.
    ///
    ///     if let feed = LayoutFeed(gateway: url, opening: row.action) { show(feed.records()) }
    public init?(gateway: URL, opening action: Layout.Action) {
        guard action.kind == "navigate" else { return nil }
        self.init(gateway: gateway, key: action.target)
    }

    /// A record the page shows.
    public struct Record: Sendable, Equatable {
        public var bytes: [UInt8]
        public var hash: ContentHash
    }

    /// Every record the page shows, as it changes; reconnects after `retry` when the stream drops. Ends (throwing)
    /// only on a change set that cannot be applied for another reason than a stale base (a bug to report), or when
    /// the iterating task is cancelled.
    public func records(retry: Duration = .seconds(2)) -> Records { Records(feed: self, retry: retry) }

    /// The records of a page. The work is done in the iterating task (no task of its own): it follows that
    /// task's cancellation and executor.
    public struct Records: AsyncSequence, Sendable {
        public typealias Element = Record
        let feed: LayoutFeed
        let retry: Duration

        public func makeAsyncIterator() -> Iterator { Iterator(feed: feed, retry: retry) }

        public struct Iterator: AsyncIteratorProtocol {
            let feed: LayoutFeed
            let retry: Duration
            var state = FeedState()
            /// The open stream: its bytes and the session behind them (closed when released).
            var chunks: AsyncStream<Data>.Iterator?
            var connection: Connection?
            var parser = ServerSentEvents()
            /// Records parsed from a chunk and not yet taken.
            var ready: [Record] = []
            var dropped = false
            var ended = false

            public mutating func next() async throws -> Record? {
                while !ended {
                    if !ready.isEmpty { return ready.removeFirst() }
                    if Task.isCancelled { break }
                    if chunks == nil {
                        if dropped { try? await Task.sleep(for: retry) }
                        if Task.isCancelled { break }
                        open()
                    }
                    guard let chunk = await chunks?.next() else {
                        close()
                        continue
                    }
                    do {
                        try await take(chunk)
                    } catch let error as ChangeSetError {
                        ended = true
                        close()
                        throw error
                    } catch {
                        close()  // the record could not be fetched: open the stream again after the pause
                    }
                }
                ended = true
                close()
                return nil
            }

            /// Opens the stream, with the event id (or hash) held as `Last-Event-ID`.
            mutating func open() {
                var request = URLRequest(url: feed.url.appendingPathComponent("changes"))
                request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
                if let id = state.lastEventID { request.setValue(id, forHTTPHeaderField: "Last-Event-ID") }
                request.timeoutInterval = 3_600
                let (stream, delegate) = ChunkDelegate.stream()
                connection = Connection(request, delegate)
                chunks = stream.makeAsyncIterator()
                parser = ServerSentEvents()
            }

            /// Closes the stream; the next one opens after the pause.
            mutating func close() {
                connection = nil
                chunks = nil
                dropped = true
            }

            /// The records the events of `chunk` make.
            mutating func take(_ chunk: Data) async throws {
                for event in parser.feed(chunk) {
                    var step = try state.take(event)
                    if step == .fetchRecord { step = state.show(try await feed.fetchRecord()) }
                    if case .show(let bytes, let hash) = step { ready.append(Record(bytes: bytes, hash: hash)) }
                }
            }
        }
    }

    /// A data task in a session of its own, cancelled when released.
    final class Connection: Sendable {
        let session: URLSession

        init(_ request: URLRequest, _ delegate: ChunkDelegate) {
            session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
            session.dataTask(with: request).resume()
        }

        deinit { session.invalidateAndCancel() }
    }

    /// The record, with GET.
    func fetchRecord() async throws -> [UInt8] {
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
