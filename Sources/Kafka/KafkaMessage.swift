import CRdKafka

/// One message header.
public struct KafkaHeader: Sendable, Equatable {
    public var name: String
    public var value: [UInt8]?

    public init(_ name: String, _ value: [UInt8]?) {
        self.name = name
        self.value = value
    }

    /// A header with a UTF-8 text value.
    public init(_ name: String, text: String) {
        self.init(name, Array(text.utf8))
    }

    /// Bytes this header takes in a record: its name and value plus their two length varints (at most 5 bytes each
    /// for lengths below 2^31; 10 is counted to stay on the safe side).
    public var wireSize: Int { name.utf8.count + (value?.count ?? 0) + 10 }
}

extension [KafkaHeader] {
    /// The value of the first header called `name`.
    public func value(_ name: String) -> [UInt8]? { first { $0.name == name }?.value ?? nil }

    /// The first header called `name` written as a decimal integer (an offset, a timestamp), or nil.
    public func integer(_ name: String) -> Int64? {
        value(name).flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
    }
}

/// A consumed message, copied out of librdkafka.
public struct KafkaMessage: Sendable {
    public var topic: String
    public var partition: Int32
    public var offset: Int64
    public var key: [UInt8]?
    /// Nil for a tombstone.
    public var value: [UInt8]?
    public var headers: [KafkaHeader]
    /// Milliseconds since the epoch, when the broker gives one.
    public var timestamp: Int64?

    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader] = [],
        timestamp: Int64? = nil
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestamp = timestamp
    }

    /// Where the message is: its topic, partition and offset.
    public var position: Position { Position(Partition(topic, partition), offset) }

    /// Bytes the message takes on the wire at most: key, value, headers and the per-record overhead.
    public var wireSize: Int { KafkaMessage.wireSize(key: key, value: value, headers: headers) }

    /// Bytes a record with this key, value and headers takes at most; librdkafka refuses a record above its
    /// `message.max.bytes` by this measure (its own estimate adds at most 36 bytes to key, value and headers).
    public static func wireSize(key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader]) -> Int {
        headers.reduce(64 + (key?.count ?? 0) + (value?.count ?? 0)) { $0 + $1.wireSize }
    }

    /// The value of the first header called `name`.
    public func header(_ name: String) -> [UInt8]? { headers.value(name) }

    /// A header written as a decimal integer (an offset, a timestamp), or nil.
    public func integerHeader(_ name: String) -> Int64? { headers.integer(name) }

    init(_ m: UnsafePointer<rd_kafka_message_t>) {
        let msg = m.pointee
        topic = msg.rkt.map { String(cString: rd_kafka_topic_name($0)) } ?? ""
        partition = msg.partition
        offset = msg.offset
        key = msg.key.map { Array(UnsafeRawBufferPointer(start: $0, count: msg.key_len)) }
        value = msg.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: msg.len)) }
        var type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let ts = rd_kafka_message_timestamp(m, &type)
        timestamp = type == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : ts
        var list: [KafkaHeader] = []
        var hdrs: OpaquePointer?
        if rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR, let hdrs {
            var index = 0
            var name: UnsafePointer<CChar>?
            var value: UnsafeRawPointer?
            var size = 0
            while rd_kafka_header_get_all(hdrs, index, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
                // librdkafka gives a consumed header's name as a C string only (no public call gives its length):
                // a name with a NUL byte in it reads up to the NUL.
                let nameText = name.map { String(cString: $0) } ?? ""
                list.append(KafkaHeader(nameText, value.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }))
                index += 1
            }
        }
        headers = list
    }
}

extension Array where Element == Position {
    /// A new librdkafka partition list; the caller destroys it.
    func makeList() -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        let list = rd_kafka_topic_partition_list_new(Int32(count))!
        for position in self {
            let entry = rd_kafka_topic_partition_list_add(list, position.topic, position.partition.number)!
            entry.pointee.offset = position.offset
        }
        return list
    }

    /// Copies a librdkafka partition list.
    init(_ list: UnsafePointer<rd_kafka_topic_partition_list_t>) {
        self = (0..<Int(list.pointee.cnt)).map { i in
            let e = list.pointee.elems[i]
            return Position(Partition(String(cString: e.topic), e.partition), e.offset)
        }
    }
}
