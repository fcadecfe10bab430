/// What the delivery engine reports to its owner's metrics (`serve` counts them; `replay` does not).
public protocol DeliveryMetrics: Sendable {
    /// Parts sent again after the cluster could not take them.
    func retried(parts: Int)
    /// The output was blocked this long.
    func outputBlocked(seconds: Double)
    /// A producer that acknowledged nothing was replaced.
    func producerReplaced()
}
