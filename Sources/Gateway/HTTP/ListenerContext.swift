import NIOCore
import NIOHTTP1

/// What every connection of a listener shares: one reference per connection (a stream's connection is most of
/// what a stream costs, so nothing is copied into it).
final class ListenerContext: Sendable {
    let endpoints: GatewayEndpoints
    let book: PageBook
    let hub: StreamHub
    let metrics: GatewayMetrics
    let limits: StreamLimits
    let requestTimeout: TimeAmount
    /// Navigation states from the origin, or nil.
    var origin: OriginStates? { endpoints.origin }

    /// A page's record and where it is: the published page's, else a navigation state's held copy.
    func currentRecord(_ key: String) -> ([UInt8], StreamPosition)? {
        if case .page(let record, let at) = book.read(key) { return (record, at) }
        guard let held = origin?.cache.read(key) else { return nil }
        return (held.record, StreamPosition(hash: held.hash, offset: nil))
    }

    init(
        endpoints: GatewayEndpoints, book: PageBook, hub: StreamHub, metrics: GatewayMetrics, limits: StreamLimits,
        requestTimeout: TimeAmount
    ) {
        self.endpoints = endpoints
        self.book = book
        self.hub = hub
        self.metrics = metrics
        self.limits = limits
        self.requestTimeout = requestTimeout
    }
}

extension ListenerContext {
    /// A new connection's handlers, on its loop: the request decoder, then the connection.
    func addHandlers(to channel: any Channel, port: GatewayEndpoints.Port) throws {
        let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes))
        try channel.pipeline.syncOperations.addHandler(decoder)
        try channel.pipeline.syncOperations.addHandler(GatewayConnection(shared: self, port: port, decoder: decoder))
    }
}
