public import Kafka
import LayoutKit
public import PageStore

/// Steps travel with their page's latest layout as header pairs, oldest first: `Wire.Header.stepInput` (the input
/// offset and the group, as text: `offset@group`), then `Wire.Header.step` (the change set; no value for a
/// tombstone).
extension CarriedStep {
    /// The headers carrying `steps`.
    public static func headers(_ steps: [CarriedStep]) -> [KafkaHeader] {
        steps.flatMap { step in
            [
                KafkaHeader(Wire.Header.stepInput, text: "\(step.offset)@\(step.group)"),
                KafkaHeader(Wire.Header.step, step.changeSet),
            ]
        }
    }

    /// The steps `headers` carry; a pair that cannot be read is left out.
    public static func read(from headers: [KafkaHeader]) -> [CarriedStep] {
        var steps: [CarriedStep] = []
        var input: (offset: Int64, group: String)?
        for header in headers {
            switch header.name {
            case Wire.Header.stepInput:
                let text = String(decoding: header.value ?? [], as: UTF8.self)
                guard let at = text.firstIndex(of: "@"), let offset = Int64(text[..<at]) else { continue }
                input = (offset, String(text[text.index(after: at)...]))
            case Wire.Header.step:
                if let i = input {
                    steps.append(CarriedStep(group: i.group, offset: i.offset, changeSet: header.value))
                }
                input = nil
            default: continue
            }
        }
        return steps
    }
}
