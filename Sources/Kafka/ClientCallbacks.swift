import CRdKafka
import Logging

/// What a client's C callbacks reach through librdkafka's opaque pointer: its logger and statistics handler.
/// Consumers and producers extend it with their own state. It outlives the client handle it serves.
class ClientCallbacks {
    let logger: Logger?
    let statistics: (@Sendable ([UInt8]) -> Void)?
    let errors: (@Sendable (KafkaError) -> Void)?
    /// Lines that repeat while a broker is down, let through once every 30 s (the configuration's).
    let repeated: RepeatedLogLines

    init(configuration: KafkaConfiguration) {
        logger = configuration.logger
        statistics = configuration.statisticsHandler
        errors = configuration.errorHandler
        repeated = configuration.repeatedLines
    }

    /// Points `conf`'s opaque at `self` and installs the log and statistics callbacks.
    func install(on conf: OpaquePointer) {
        rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(self).toOpaque())
        if logger != nil {
            // librdkafka's lines go through swift-log (any thread may call this): never its own stderr output.
            rd_kafka_conf_set_log_cb(conf) { rk, level, facility, text in
                guard let rk, let opaque = rd_kafka_opaque(rk) else { return }
                let callbacks = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue()
                guard let logger = callbacks.logger else { return }
                let message = text.map { String(cString: $0) } ?? ""
                let facility = facility.map { String(cString: $0) } ?? ""
                guard let held = callbacks.repeated.admit(facility: facility, text: message) else { return }
                var metadata: Logger.Metadata = [
                    "facility": .string(facility), "client": .string(String(cString: rd_kafka_name(rk))),
                ]
                if held > 0 { metadata["repeated"] = .stringConvertible(held) }
                logger.log(
                    level: ClientCallbacks.level(syslog: level), Logger.Message(stringLiteral: message),
                    metadata: metadata)
            }
        }
        if errors != nil || logger != nil {
            // Client-level errors (brokers down, authentication, …), served during `poll`.
            rd_kafka_conf_set_error_cb(conf) { rk, code, reason, opaque in
                guard let opaque else { return }
                let callbacks = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue()
                let error = KafkaError(rd_kafka_resp_err_t(code), message: reason.map { String(cString: $0) })
                if let handler = callbacks.errors {
                    handler(error)
                } else if let held = callbacks.repeated.admit(facility: "ERROR", text: error.name) {
                    callbacks.logger?.warning(
                        "kafka client error",
                        metadata: [
                            "error": .string(error.description),
                            "client": .string(rk.map { String(cString: rd_kafka_name($0)) } ?? ""),
                            "repeated": .stringConvertible(held),
                        ])
                }
            }
        }
        if statistics != nil {
            rd_kafka_conf_set_stats_cb(conf) { _, json, length, opaque in
                guard let json, let opaque else { return 0 }
                let callbacks = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue()
                let bytes = UnsafeRawBufferPointer(start: json, count: length)
                callbacks.statistics?(Array(bytes))
                return 0  // librdkafka frees the JSON
            }
        }
    }

    /// syslog severities (librdkafka's) as swift-log levels.
    static func level(syslog: Int32) -> Logger.Level {
        switch syslog {
        case ...2: .critical
        case 3: .error
        case 4: .warning
        case 5: .notice
        case 6: .info
        default: .debug
        }
    }
}
