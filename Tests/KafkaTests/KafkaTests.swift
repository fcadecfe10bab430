import Testing

@testable import Kafka

/// What the Kafka edge decides without a broker: how a produce error is handled, librdkafka's statistics read.
@Suite struct KafkaTests {
    @Test func produceDispositionsByCode() {
        #expect(ProduceDisposition(KafkaError(code: 10, name: "MSG_SIZE_TOO_LARGE", message: "")) == .rejectRecord)
        #expect(ProduceDisposition(KafkaError(code: 87, name: "INVALID_RECORD", message: "")) == .rejectRecord)
        #expect(ProduceDisposition(KafkaError(code: 59, name: "UNKNOWN_PRODUCER_ID", message: "")) == .replaceProducer)
        #expect(ProduceDisposition(KafkaError(code: -152, name: "_PURGE_QUEUE", message: "")) == .replaceProducer)
        #expect(ProduceDisposition(KafkaError(code: 1, name: "X", message: "", isFatal: true)) == .replaceProducer)
        #expect(ProduceDisposition(KafkaError(code: 3, name: "UNKNOWN_TOPIC_OR_PART", message: "")) == .wait)
        #expect(ProduceDisposition(KafkaError(code: -192, name: "_MSG_TIMED_OUT", message: "")) == .wait)
        #expect(ProduceDisposition(KafkaError(code: 5, name: "LEADER_NOT_AVAILABLE", message: "")) == .wait)
        #expect(ProduceDisposition(KafkaError(code: 29, name: "TOPIC_AUTHORIZATION_FAILED", message: "")) == .wait)
    }

    /// A statistics document as librdkafka writes it (cut down): group membership, brokers up (the bootstrap
    /// entry, node id -1, is not a broker), and consumer lag per partition without librdkafka's internal and unknown
    /// entries.
    @Test func statisticsAreRead() throws {
        let json = """
            {"type":"consumer","replyq":2,"msg_cnt":5,"tx":10,"tx_bytes":1000,"rx":9,"rx_bytes":900,
             "cgrp":{"state":"up","join_state":"steady"},
             "brokers":{"127.0.0.1:9092/bootstrap":{"name":"127.0.0.1:9092/bootstrap","nodeid":-1,"state":"UP"},
                        "127.0.0.1:9092/1":{"name":"127.0.0.1:9092/1","nodeid":1,"state":"UP",
                                            "rtt":{"avg":1500,"p99":4000},"waitresp_cnt":3},
                        "127.0.0.1:9093/2":{"name":"127.0.0.1:9093/2","nodeid":2,"state":"DOWN"}},
             "topics":{"in":{"topic":"in","partitions":{
                 "0":{"partition":0,"consumer_lag":7,"fetchq_cnt":2},
                 "1":{"partition":1,"consumer_lag":-1},
                 "-1":{"partition":-1,"consumer_lag":0}}}}}
            """
        let stats = try #require(KafkaStatistics(json: Array(json.utf8)))
        #expect(stats.type == "consumer" && stats.replyQueue == 2 && stats.messagesQueued == 5)
        #expect(stats.isGroupMember)
        #expect(stats.brokersUp == 1, "the bootstrap entry is not a broker; broker 2 is down")
        #expect(stats.brokers.first { $0.nodeID == 1 }?.rttP99Micros == 4000)
        #expect(stats.brokerStates.contains("127.0.0.1:9093/2=DOWN"))
        #expect(stats.partitions.map(\.partition) == [0] && stats.partitions[0].consumerLag == 7)
        #expect(KafkaStatistics(json: Array("[1]".utf8)) == nil && KafkaStatistics(json: Array("{".utf8)) == nil)
    }

    @Test func aMessagesPositionIsItsTopicPartitionAndOffset() {
        let m = KafkaMessage(topic: "in", partition: 2, offset: 41, key: nil, value: Array("{}".utf8))
        #expect(m.position == Partition("in", 2).at(41))
        #expect(m.position.description == "in[2]@41")
    }
}
