import CRdKafka

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What became of one produced message.
public struct DeliveryReport: Sendable {
    /// The token given to `produce`.
    public let token: Int
    /// Nil when the broker acknowledged the message.
    public let error: KafkaError?
    public let topic: String
    public let partition: Int32
    public let offset: Int64
}

/// A queued message's key and value, produced in place (librdkafka reads them where they are, not from a copy of
/// its own): retained from `produce` until the message's delivery report, so they outlive librdkafka's use of them
/// whatever the caller does meanwhile. Never changed, so their storage stays where librdkafka was told it is.
final class ProducedBytes {
    let token: Int
    let key: [UInt8]?
    let value: [UInt8]?

    init(token: Int, key: [UInt8]?, value: [UInt8]?) {
        self.token = token
        self.key = key
        self.value = value
    }
}

/// Collects delivery reports from librdkafka's callback, which runs inside `poll`/`flush` on the caller's thread.
final class DeliveryBox: ClientCallbacks {
    var reports: [DeliveryReport] = []
}

/// A producer with delivery reports. Use it from one thread: reports arrive during that thread's `poll` and `flush`.
public final class KafkaProducer {
    private let handle: OpaquePointer
    private let box: DeliveryBox

    /// A producer; `idempotent` turns on `enable.idempotence` (acks=all, ordered, no duplicates on retry).
    public init(configuration: KafkaConfiguration, idempotent: Bool = true) throws(KafkaError) {
        let box = DeliveryBox(configuration: configuration)
        let conf = try configuration.makeConf(
            required: idempotent ? ["enable.idempotence": "true"] : [:], callbacks: box)
        rd_kafka_conf_set_dr_msg_cb(conf) { _, message, opaque in
            guard let message, let opaque else { return }
            guard let box = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue() as? DeliveryBox else {
                return
            }
            let m = message.pointee
            let topic = m.rkt.map { String(cString: rd_kafka_topic_name($0)) } ?? ""
            // The message's bytes are librdkafka's no more: released here.
            guard let held = m._private else { return }
            let produced = Unmanaged<ProducedBytes>.fromOpaque(held).takeRetainedValue()
            box.reports.append(
                DeliveryReport(
                    token: produced.token,
                    error: m.err == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError(m.err),
                    topic: topic, partition: m.partition, offset: m.offset))
        }
        var errstr = [CChar](repeating: 0, count: 512)
        guard let rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, &errstr, errstr.count) else {
            rd_kafka_conf_destroy(conf)
            throw .configuration("cannot create producer: " + String(errorBuffer: errstr))
        }
        handle = rk
        self.box = box
    }

    deinit {
        // Messages still queued are reported (purged) first, so what they hold is released.
        if rd_kafka_outq_len(handle) > 0 { _ = purge(timeoutMs: 1_000) }
        rd_kafka_destroy(handle)
    }

    /// Calls `body` with the bytes of `bytes`, or nil.
    private static func withBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { body($0) }
    }

    /// Queues a message; its report carries `token`. Throws at once for local failures (queue full, unknown topic...).
    public func produce(
        topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader] = [], token: Int
    ) throws(KafkaError) {
        var owned: [UnsafeMutableRawPointer] = []
        defer { owned.forEach { free($0) } }
        let topicC = strdup(topic)!
        owned.append(UnsafeMutableRawPointer(topicC))
        var vus: [rd_kafka_vu_t] = []
        var vu = rd_kafka_vu_t()
        vu.vtype = RD_KAFKA_VTYPE_TOPIC
        vu.u.cstr = UnsafePointer(topicC)
        vus.append(vu)
        vu = rd_kafka_vu_t()
        vu.vtype = RD_KAFKA_VTYPE_MSGFLAGS
        vu.u.i = 0  // neither copied nor freed by librdkafka: `ProducedBytes` keeps them until the report
        vus.append(vu)
        if let partition {
            vu = rd_kafka_vu_t()
            vu.vtype = RD_KAFKA_VTYPE_PARTITION
            vu.u.i32 = partition
            vus.append(vu)
        }
        // librdkafka owns the header list once the message is queued; on failure it stays ours.
        let headerList = try Self.headerList(headers)
        if let headerList {
            vu = rd_kafka_vu_t()
            vu.vtype = RD_KAFKA_VTYPE_HEADERS
            vu.u.headers = headerList
            vus.append(vu)
        }
        // The message holds its key and value until its report (one copy of a record in memory, the caller's, not
        // a second one made by librdkafka).
        let produced = Unmanaged.passRetained(ProducedBytes(token: token, key: key, value: value))
        vu = rd_kafka_vu_t()
        vu.vtype = RD_KAFKA_VTYPE_OPAQUE
        vu.u.ptr = produced.toOpaque()
        vus.append(vu)
        let held = produced.takeUnretainedValue()
        let error: OpaquePointer? = Self.withBytes(held.key) { k in
            Self.withBytes(held.value) { v in
                var all = vus
                if let k { all.append(Self.memory(RD_KAFKA_VTYPE_KEY, k)) }
                all.append(Self.memory(RD_KAFKA_VTYPE_VALUE, v))
                return all.withUnsafeBufferPointer { rd_kafka_produceva(handle, $0.baseAddress, $0.count) }
            }
        }
        if let error {
            produced.release()  // not queued: librdkafka holds nothing
            if let headerList { rd_kafka_headers_destroy(headerList) }
            throw KafkaError(consuming: error)
        }
    }

    /// Headers as one librdkafka list, names added by byte count so a NUL byte inside a name survives; nil for none.
    private static func headerList(_ headers: [KafkaHeader]) throws(KafkaError) -> OpaquePointer? {
        guard !headers.isEmpty else { return nil }
        let list = rd_kafka_headers_new(headers.count)!
        for header in headers {
            var name = header.name
            let added = name.withUTF8 { n in
                withBytes(header.value) { v in
                    rd_kafka_header_add(
                        list,
                        UnsafeRawPointer(n.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                            .assumingMemoryBound(to: CChar.self), n.count,
                        v.map { $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)! }, v?.count ?? 0)
                }
            }
            if added != RD_KAFKA_RESP_ERR_NO_ERROR {
                rd_kafka_headers_destroy(list)
                throw KafkaError(added)
            }
        }
        return list
    }

    /// A key or value argument: the bytes in place (nil: a null value; empty, not null, still needs a pointer).
    private static func memory(_ type: rd_kafka_vtype_t, _ bytes: UnsafeRawBufferPointer?) -> rd_kafka_vu_t {
        var vu = rd_kafka_vu_t()
        vu.vtype = type
        if let bytes {
            vu.u.mem.ptr =
                bytes.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
                ?? UnsafeMutableRawPointer(mutating: UnsafeRawPointer(bitPattern: 1)!)
            vu.u.mem.size = bytes.count
        }
        return vu
    }

    /// Serves callbacks for up to `timeoutMs` and returns the delivery reports that arrived.
    public func poll(timeoutMs: Int32 = 0) -> [DeliveryReport] {
        rd_kafka_poll(handle, timeoutMs)
        return takeReports()
    }

    /// Waits up to `timeoutMs` for every queued message; returns the reports that arrived and how many are still pending.
    public func flush(timeoutMs: Int32) -> (reports: [DeliveryReport], pending: Int) {
        _ = rd_kafka_flush(handle, timeoutMs)
        return (takeReports(), Int(rd_kafka_outq_len(handle)))
    }

    /// Drops every queued and in-flight message without waiting for the brokers, and returns their reports
    /// (errors `_PURGE_QUEUE` / `_PURGE_INFLIGHT`).
    public func purge(timeoutMs: Int32 = 5_000) -> [DeliveryReport] {
        _ = rd_kafka_purge(
            handle, Int32(RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT | RD_KAFKA_PURGE_F_NON_BLOCKING))
        var reports: [DeliveryReport] = []
        var waited: Int32 = 0
        repeat {
            rd_kafka_poll(handle, 50)
            reports += takeReports()
            waited += 50
        } while rd_kafka_outq_len(handle) > 0 && waited < timeoutMs
        return reports
    }

    /// Asks the cluster for `topic`'s metadata now. A producer that has seen a topic missing fails every record for
    /// it at once until its next periodic refresh (`topic.metadata.refresh.interval.ms`, five minutes by default)
    /// finds it; a topic created since is produced to from this answer on.
    public func refreshMetadata(topic: String, timeoutMs: Int32) throws(KafkaError) {
        guard let rkt = rd_kafka_topic_new(handle, topic, nil) else { throw KafkaError(rd_kafka_last_error()) }
        defer { rd_kafka_topic_destroy(rkt) }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(handle, 0, rkt, &metadata, timeoutMs)
        if let metadata { rd_kafka_metadata_destroy(metadata) }
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err) }
    }

    /// Messages queued or in flight (not yet reported).
    public var pending: Int { Int(rd_kafka_outq_len(handle)) }

    /// The producer's fatal error, if it has one (an idempotent producer stops producing after it).
    public var fatalError: KafkaError? {
        var errstr = [CChar](repeating: 0, count: 512)
        let err = rd_kafka_fatal_error(handle, &errstr, errstr.count)
        guard err != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return KafkaError(
            code: KafkaError.Code(err), name: String(cString: rd_kafka_err2name(err)),
            message: String(errorBuffer: errstr), isFatal: true)
    }

    private func takeReports() -> [DeliveryReport] {
        let reports = box.reports
        box.reports.removeAll(keepingCapacity: true)
        return reports
    }
}
