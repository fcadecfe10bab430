public import SplitMix

/// The property tests' random source: SplitMix64, so every failure can be replayed from its seed.
public typealias SeededRandom = SplitMix64
