import Foundation
import Kafka
import KafkaTesting
import Testing

/// How a range reader knows it has read a partition to its end.
@Suite struct TopicRangeReaderTests {
    /// A range that starts at the end a fetch found (a gateway's checkpoint at the end, change sets from their end)
    /// has caught up before anything is polled, and one read up to that end has caught up with its last message:
    /// neither waits on a partition-end event, which librdkafka gives once per fetch position.
    @Test func aRangeAtTheFetchedEndHasCaughtUpWithoutAPartitionEndEvent() throws {
        let mock = try KafkaMockCluster(brokers: 1)
        try mock.createTopic("t", partitions: 2)
        let configuration = KafkaConfiguration(bootstrapServers: mock.bootstrapServers)
        let producer = try KafkaProducer(configuration: configuration)
        for n in 0..<3 { try producer.produce(topic: "t", partition: 0, key: nil, value: [UInt8(n)], token: n) }
        #expect(producer.flush(timeoutMs: 10_000).pending == 0)

        let reader = try TopicRangeReader(configuration: configuration, topic: "t")
        defer { reader.close() }
        let ends = try reader.fetchedEnds([0, 1])
        #expect(ends == [0: 3, 1: 0])
        try reader.read([.init(partition: 0, start: 3), .init(partition: 1, start: 0)])
        #expect(reader.hasCaughtUp && reader.position(0) == 3 && reader.position(1) == 0)

        try reader.read([.init(partition: 0, start: 1), .init(partition: 1, start: 0)])
        #expect(!reader.hasCaughtUp && reader.reachedEnd == [1])
        var offsets: [Int64] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while offsets.count < 2 && ContinuousClock.now < deadline {
            if case .success(let m)? = reader.next(timeoutMs: 100) { offsets.append(m.offset) }
        }
        #expect(offsets == [1, 2])
        #expect(reader.hasCaughtUp && reader.position(0) == 3)

        // A range that stops at the partition's end is finished there too.
        try reader.read([.init(partition: 0, start: 3, stop: .partitionEnd)])
        #expect(reader.isDone)
    }
}
