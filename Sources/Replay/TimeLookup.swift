import Foundation
public import Kafka

/// Finds the first offset at or after a time, and checks the broker's answer against the records themselves.
public struct TimeLookup: Sendable {
    public let kafka: KafkaConfiguration
    public let topic: String

    public init(kafka: KafkaConfiguration, topic: String) {
        self.kafka = kafka
        self.topic = topic
    }

    /// The broker answered a time lookup inconsistently.
    public struct Inconsistent: Error, CustomStringConvertible {
        public let description: String
    }

    /// The first offset of `partition` whose record is at or after `time` (ms), or `high` when there is none.
    public func firstOffset(
        atOrAfter time: Int64, partition: Int32, low: Int64, high: Int64, reader: TopicRangeReader
    ) throws -> Int64 {
        guard let answer = try reader.offset(atOrAfter: time, partition: partition), answer < high else {
            return high  // no record at or after `time`
        }
        // The answer must be the first record at or after `time`: that record is not earlier, its predecessor is.
        let probe = try TopicRangeReader(configuration: kafka, topic: topic, fetchWaitMs: 20)
        defer { probe.close() }
        func timestamp(at offset: Int64) throws -> Int64? {
            try probe.read([.init(partition: partition, start: offset, stop: .offset(offset + 1))])
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline && !probe.isDone {
                if case .success(let m) = probe.next(timeoutMs: 100) { return m.offset == offset ? m.timestamp : nil }
            }
            return nil
        }
        let found = try timestamp(at: answer)
        let before = answer > low ? try timestamp(at: answer - 1) : nil
        if let found, found < time {
            throw Inconsistent(
                description:
                    "the broker answered offset \(answer) for time \(time) on \(topic)[\(partition)], but that record's timestamp is \(found), earlier than asked; refusing to use a wrong offset"
            )
        }
        if let before, before >= time {
            throw Inconsistent(
                description:
                    "the broker answered offset \(answer) for time \(time) on \(topic)[\(partition)], but the record before it (timestamp \(before)) is already at or after that time; refusing to use a wrong offset"
            )
        }
        return answer
    }
}

extension ReplayRange.Start {
    /// Where this start puts `partition`, whose offsets run from `low` to `high` (a time looked up with `times`;
    /// never below `low`).
    public func offset(
        partition: Int32, low: Int64, high: Int64, times: TimeLookup, reader: TopicRangeReader
    ) throws -> Int64 {
        switch self {
        case .beginning: low
        case .offset(let n): max(n, low)
        case .offsets(let map): max(map[partition] ?? low, low)
        case .time(let t):
            try times.firstOffset(atOrAfter: t, partition: partition, low: low, high: high, reader: reader)
        }
    }
}
