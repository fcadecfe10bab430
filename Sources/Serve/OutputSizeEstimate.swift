import Kafka

/// Output bytes per input byte of the batches so far, smoothed over batches and kept within 0…8: what a fetch
/// leaves room for in the in-flight byte budget, as a batch's outputs join the budget only once it is compiled
/// (a record is about 1.1 times its response; with change sets, about 2.1).
struct OutputSizeEstimate {
    private(set) var outputsPerInputByte = 1.0

    /// The input bytes a batch may take when the budget has `room` left: room for them and their outputs.
    func inputBytes(fitting room: Int) -> Int { Int(Double(max(0, room)) / (1 + outputsPerInputByte)) }

    /// Takes in a batch: `added` is what it added to the in-flight bytes, its inputs and outputs.
    mutating func learn(from batch: [KafkaMessage], added: Int) {
        let inputs = batch.reduce(0) { $0 + $1.wireSize }
        guard inputs > 0 else { return }
        let ratio = min(8, max(0, Double(added - inputs) / Double(inputs)))
        outputsPerInputByte = (outputsPerInputByte + ratio) / 2
    }
}
