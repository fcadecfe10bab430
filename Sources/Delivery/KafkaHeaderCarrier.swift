public import Instrumentation
public import Kafka

/// Reads a trace context from a Kafka message's headers (the first header of that name, as UTF-8).
public struct KafkaHeaderExtractor: Extractor {
    public init() {}

    public func extract(key: String, from carrier: [KafkaHeader]) -> String? {
        guard let header = carrier.first(where: { $0.name == key }), let value = header.value else { return nil }
        return String(decoding: value, as: UTF8.self)
    }
}

/// Writes a trace context into an output's headers, replacing a header of the same name.
public struct KafkaHeaderInjector: Injector {
    public init() {}

    public func inject(_ value: String, forKey key: String, into carrier: inout [KafkaHeader]) {
        carrier.removeAll { $0.name == key }
        carrier.append(KafkaHeader(key, text: value))
    }
}
