import ArgumentParser
import Kafka
import Logging
import Ops
import Serve

/// The options every Kafka command takes, with the same names, environment variables and settings-file keys.
struct ConnectionOptions: ParsableArguments {
    @Option(SettingTable.settingsFile)
    var settings: String?
    @Option(SettingTable.brokers) var brokers: String?
    @Option(SettingTable.kafkaProperty)
    var kafkaProperty: [String] = []
    @Option(SettingTable.logFormat) var logFormat: String?
    @Option(SettingTable.logLevel) var logLevel: String?

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
        let properties = try sources.properties(SettingTable.kafkaProperty, kafkaProperty)
        let format = try sources.read(SettingTable.logFormat, logFormat)
        let level = try sources.read(SettingTable.logLevel, logLevel) ?? defaultLevel
        var kafka = KafkaConfiguration(
            bootstrapServers: try sources.read(SettingTable.brokers, brokers),
            clientID: clientID, properties: properties)
        let logger = format.logger(label: "layout-worker", level: level, secrets: kafka.secretValues)
        kafka.logger = format.logger(label: "librdkafka", level: level, secrets: kafka.secretValues)
        FormerNames.warnAboutUses(logger, sources: sources)
        return Resolved(sources: sources, kafka: kafka, logger: logger, format: format, level: level)
    }
}

/// A command that reaches Kafka through `ConnectionOptions`.
protocol KafkaCommand: ParsableCommand {
    var connection: ConnectionOptions { get }
}

extension KafkaCommand {
    /// Says that `topic` is not on the brokers, and what to do; the exit status to stop with (1, a runtime failure:
    /// docs/operating.md's exit-code table).
    func missingTopic(_ topic: String) -> ExitCode {
        Output.error(
            "topic \(topic) does not exist on \(connection.brokersAsGiven) (list the topics with `kcat -L -b "
                + "\(connection.brokersAsGiven)`, or create it: layout-worker create-topics \(topic))")
        return ExitCode(1)
    }
}

extension ServeCommand: KafkaCommand {}
extension ReplayCommand: KafkaCommand {}
extension PreviewCommand: KafkaCommand {}
extension GatewayCommand: KafkaCommand {}
extension OffsetsCommand: KafkaCommand {}
extension TailCommand: KafkaCommand {}
extension ProduceCommand: KafkaCommand {}
extension CreateTopicsCommand: KafkaCommand {}

extension ConnectionOptions {
    /// The brokers as the command reads them (flag, then `LAYOUT_WORKER_BROKERS`, then the settings file).
    var brokersAsGiven: String {
        (try? SettingsSources(settingsFlag: settings))?.value(brokers, SettingTable.brokers.name) ?? brokers
            ?? SettingTable.defaultBrokers
    }

    /// For a command that stopped because no broker answered, what to say instead of librdkafka's code: the address
    /// it tried and what to check; nil for any other error.
    static func unreachableMessage(_ error: any Error, of command: any ParsableCommand) -> String? {
        guard let error = error as? KafkaError, let command = command as? any KafkaCommand,
            [.transport, .allBrokersDown, .timedOut].contains(error.code)
        else { return nil }
        return "no broker answered at \(command.connection.brokersAsGiven) (\(error.name): \(error.message)); check "
            + "--brokers (or LAYOUT_WORKER_BROKERS), that the brokers are up, and that this host can reach them"
    }
}
