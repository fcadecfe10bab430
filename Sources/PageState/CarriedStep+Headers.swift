public import Kafka
import LayoutKit
public import PageStore

/// Steps travel with their page's latest layout as header pairs, oldest first: `Wire.Header.stepOffset` (the input
/// offset, as text), then `Wire.Header.step` (the change set; no value for a tombstone).
extension CarriedStep {
    /// The headers carrying `steps`.
    public static func headers(_ steps: [CarriedStep]) -> [KafkaHeader] {
        steps.flatMap { step in
            [
                KafkaHeader(Wire.Header.stepOffset, text: String(step.offset)),
                KafkaHeader(Wire.Header.step, step.changeSet),
            ]
        }
    }

    /// The steps `headers` carry; a pair that cannot be read is left out.
    public static func read(from headers: [KafkaHeader]) -> [CarriedStep] {
        var steps: [CarriedStep] = []
        var offset: Int64?
        for header in headers {
            switch header.name {
            case Wire.Header.stepOffset:
                offset = header.value.flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
            case Wire.Header.step:
                if let o = offset { steps.append(CarriedStep(offset: o, changeSet: header.value)) }
                offset = nil
            default: continue
            }
        }
        return steps
    }
}
