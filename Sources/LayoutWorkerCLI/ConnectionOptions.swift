import ArgumentParser
import Kafka
import LayoutService
import Logging
import Ops

/// The options every Kafka command takes, with the same names, environment variables and settings-file keys.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "YAML settings file (keys named like the options; LAYOUT_WORKER_SETTINGS).") var settings: String?
    @Option(help: "Bootstrap brokers, host:port[,host:port] (LAYOUT_WORKER_BROKERS; default 127.0.0.1:9092).")
    var brokers: String?
    @Option(
        name: .customLong("kafka-property"),
        help:
            "librdkafka property key=value for every client, e.g. for TLS or SASL (repeatable; LAYOUT_WORKER_KAFKA_<KEY>)."
    )
    var kafkaProperty: [String] = []
    @Option(
        name: .customLong("log-format"),
        help: "json or text (LAYOUT_WORKER_LOG_FORMAT; default json unless stderr is a terminal).")
    var logFormat: String?
    @Option(
        name: .customLong("log-level"),
        help: "trace, debug, info, notice, warning, error, critical (LAYOUT_WORKER_LOG_LEVEL).")
    var logLevel: String?

    /// What a Kafka command works with: its settings, a client configuration and a logger.
    struct Resolved {
        let sources: SettingsSources
        /// The client configuration; its `logger` routes librdkafka's lines like the command's own.
        var kafka: KafkaConfiguration
        let logger: Logger
        let format: LogFormat
        let level: Logger.Level

        /// Hides these further secret values too (e.g. consumer- or producer-only properties).
        mutating func hide(_ secrets: [String]) -> Logger {
            let all = kafka.secretValues + secrets
            kafka.logger = format.logger(label: "librdkafka", level: level, secrets: all)
            return format.logger(label: "layout-worker", level: level, secrets: all)
        }
    }

    /// Reads flags, environment and settings file; `defaultLevel` is the command's log level when none is set.
    func resolve(defaultLevel: Logger.Level = .info, clientID: String = "layout-worker") throws -> Resolved {
        let sources = try SettingsSources(settingsFlag: settings)
        let properties = try sources.properties(kafkaProperty, "kafka-property")
        let formatName = sources.value(logFormat, "log-format")
        let format: LogFormat
        if let formatName {
            guard let f = LogFormat(rawValue: formatName) else {
                throw ValidationError("log-format must be json or text, not '\(formatName)'")
            }
            format = f
        } else {
            format = .automatic
        }
        let levelName = sources.value(logLevel, "log-level")
        let level =
            try levelName.map { name in
                guard let l = Logger.Level(rawValue: name) else { throw ValidationError("unknown log level '\(name)'") }
                return l
            } ?? defaultLevel
        var kafka = KafkaConfiguration(
            bootstrapServers: try SettingValidation.brokers(sources.value(brokers, "brokers") ?? "127.0.0.1:9092"),
            clientID: clientID, properties: properties)
        let logger = format.logger(label: "layout-worker", level: level, secrets: kafka.secretValues)
        kafka.logger = format.logger(label: "librdkafka", level: level, secrets: kafka.secretValues)
        return Resolved(sources: sources, kafka: kafka, logger: logger, format: format, level: level)
    }
}
