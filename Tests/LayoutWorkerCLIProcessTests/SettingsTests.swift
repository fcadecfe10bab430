import Foundation
import Kafka
import Serve
import TestSupport
import Testing

@testable import ProcessTestSupport

/// One connection and settings model for every Kafka command: the same flags, environment and settings file;
/// unknown names refused with a did-you-mean; secrets never echoed.
@Suite(.serialized) struct SettingsTests {
    /// librdkafka's own explanation of a refused property reaches the error whole: its text up to the buffer's NUL.
    @Test func librdkafkaExplainsARefusedProperty() async {
        await offThePool {
            let config = KafkaConfiguration(bootstrapServers: "127.0.0.1:1", properties: ["no.such.property": "1"])
            do {
                _ = try KafkaProducer(configuration: config)
                Issue.record("a producer was made with an unknown property")
            } catch {
                #expect(
                    (error as? KafkaError)?.message
                        == "no.such.property: No such configuration property: \"no.such.property\"")
            }
        }
    }

    /// `layout-worker` with only this test's LAYOUT_WORKER_* variables.
    func cli(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, out: String, err: String
    ) {
        try runCLI(arguments, environment: environment)
    }

    private func settingsFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString).yaml")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Per client: every client's defaults (`KafkaConfiguration.clientDefaults`) < the worker's defaults <
    /// --kafka-property < --consumer-property / --producer-property < what correctness needs (manual commits, the
    /// group, idempotence).
    @Test func clientPropertiesFollowOnePrecedence() async {
        await offThePool {
            var serve = ServeSettings(
                kafka: KafkaConfiguration(
                    bootstrapServers: "127.0.0.1:1",
                    properties: [
                        "fetch.wait.max.ms": "200", "linger.ms": "7", "enable.auto.commit": "true", "group.id": "other",
                        "statistics.interval.ms": "0",
                    ]), inputTopics: ["in"], outputTopic: "out", deadLetterTopic: "dlq", groupID: "g")
            serve.consumerProperties = ["fetch.wait.max.ms": "30"]
            serve.producerProperties = ["linger.ms": "9"]
            let consumer = serve.consumerKafka.effectiveProperties(
                defaults: ServeSettings.defaultConsumerProperties,
                required: KafkaConsumer.requiredProperties(groupID: "g"))
            #expect(consumer["fetch.wait.max.ms"] == "30")
            #expect(consumer["linger.ms"] == "7")
            #expect(consumer["statistics.interval.ms"] == "0")
            #expect(
                consumer["queued.max.messages.kbytes"]
                    == ServeSettings.defaultConsumerProperties["queued.max.messages.kbytes"])
            #expect(consumer["enable.auto.commit"] == "false" && consumer["group.id"] == "g")
            #expect(consumer["enable.metrics.push"] == "false")
            serve.producerProperties["enable.metrics.push"] = "true"
            let producer = serve.producerKafka.effectiveProperties()
            #expect(
                producer["linger.ms"] == "9" && producer["fetch.wait.max.ms"] == "200"
                    && producer["statistics.interval.ms"] == "0" && producer["enable.metrics.push"] == "true")
        }
    }

    @Test func unknownNamesAreRefusedWithADidYouMean() async throws {
        try await offThePool {
            let file = try settingsFile("brokers: 127.0.0.1:1\ndead_letter: x\n")
            let commands: [[String]] = [
                ["serve"], ["tail", "--topic", "t"], ["offsets", "--group", "g", "--topic", "t"],
                ["replay", "--input", "t", "--dry-run"],
                ["produce", "--topic", "t", Fixtures.path("samples/search-page.json")], ["create-topics", "t"],
            ]
            for command in commands {
                let r = try cli(command + ["--settings", file])
                #expect(
                    r.status == 64 && r.err.contains("unknown setting 'dead_letter'")
                        && r.err.contains("did you mean 'dead-letter'?"),
                    "\(command): \(r.status) \(r.err)")
            }
            let env = try cli(["tail", "--topic", "t"], environment: ["LAYOUT_WORKER_BROKER": "127.0.0.1:1"])
            #expect(
                env.status == 64 && env.err.contains("unknown environment variable LAYOUT_WORKER_BROKER")
                    && env.err.contains("did you mean 'LAYOUT_WORKER_BROKERS'?"), "\(env.err)")
            let format = try cli(["tail", "--topic", "t", "--log-format", "xml"])
            #expect(format.status == 64 && format.err.contains("log-format must be json or text"))
        }
    }

    @Test func librdkafkaPropertiesReachEveryCommandFromFlagsEnvironmentAndFile() async throws {
        try await offThePool {
            // A property librdkafka does not know is refused by librdkafka itself: proof that each way of passing
            // properties reaches the client of each command.
            let file = try settingsFile("brokers: 127.0.0.1:1\nkafka-property:\n  no.such.property: from-file\n")
            let commands: [[String]] = [
                ["tail", "--topic", "t"], ["offsets", "--group", "g", "--topic", "t"], ["create-topics", "t"],
                ["produce", "--topic", "t", Fixtures.path("samples/search-page.json")],
                ["replay", "--input", "t", "--dry-run"],
            ]
            for command in commands {
                let flag = try cli(command + ["--brokers", "127.0.0.1:1", "--kafka-property", "no.such.property=1"])
                #expect(flag.status != 0 && flag.err.contains("no.such.property"), "\(command) flag: \(flag.err)")
                let env = try cli(
                    command,
                    environment: ["LAYOUT_WORKER_BROKERS": "127.0.0.1:1", "LAYOUT_WORKER_KAFKA_NO_SUCH_PROPERTY": "1"])
                #expect(env.status != 0 && env.err.contains("no.such.property"), "\(command) env: \(env.err)")
                let fromFile = try cli(command + ["--settings", file])
                #expect(
                    fromFile.status != 0 && fromFile.err.contains("no.such.property"),
                    "\(command) file: \(fromFile.err)")
            }
        }
    }

    @Test func everyKafkaCommandWorksWithEnvironmentSettings() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let topic = "settings-\(UUID().uuidString.prefix(8))"
            let env = [
                "LAYOUT_WORKER_BROKERS": broker.address, "LAYOUT_WORKER_KAFKA_CLIENT_ID": "settings-test",
                "LAYOUT_WORKER_GROUP": "g-\(topic)",
            ]
            #expect(try cli(["create-topics", "--partition-count", "2", topic], environment: env).status == 0)
            #expect(
                try cli(["produce", "--topic", topic, Fixtures.path("samples/search-page.json")], environment: env)
                    .status
                    == 0)
            let tail = try cli(["tail", "--topic", topic], environment: env)
            #expect(
                tail.status == 0 && tail.err.contains("1 message(s) read on \(topic), 2 of 2 partitions"),
                "\(tail.out) \(tail.err)")
            let offsets = try cli(["offsets", "--topic", topic], environment: env)
            #expect(
                offsets.status == 0 && offsets.out.contains("group g-\(topic) on \(topic)"),
                "\(offsets.out) \(offsets.err)"
            )
            let replay = try cli(
                ["replay", "--input", topic, "--dry-run", "--config", Fixtures.path("config/default.yaml")],
                environment: env)
            #expect(replay.status == 0 && replay.out.contains("1 read"), "\(replay.out) \(replay.err)")
        }
    }

    /// One rule for every command: each option comes from `LAYOUT_WORKER_<OPTION>` (a flag from true or false), the
    /// command line winning; a variable no command has is refused by every command, `compile` too, with a
    /// suggestion only when one is close.
    @Test func everyOptionOfEveryCommandComesFromTheEnvironment() async throws {
        try await offThePool {
            let broker = try TestBroker()
            let topic = "env-\(UUID().uuidString.prefix(8))"
            try broker.createTopics([topic], partitions: 1)
            let env = ["LAYOUT_WORKER_BROKERS": broker.address, "LAYOUT_WORKER_TOPIC": topic]
            let produced = try cli(
                ["produce", Fixtures.path("samples/search-page.json")],
                environment: env.merging(["LAYOUT_WORKER_KEY": "key-from-env"]) { a, _ in a })
            #expect(produced.status == 0, "\(produced.err)")
            let tail = try cli(["tail"], environment: env.merging(["LAYOUT_WORKER_FORMAT": "json"]) { a, _ in a })
            #expect(tail.status == 0 && tail.out.contains("key-from-env"), "\(tail.out) \(tail.err)")
            let flagWins = try cli(
                ["tail", "--format", "summary"],
                environment: env.merging(["LAYOUT_WORKER_FORMAT": "json"]) { a, _ in a })
            #expect(flagWins.status == 0 && !flagWins.out.hasPrefix("{"), "\(flagWins.out)")
            let pretty = try cli(
                ["compile", Fixtures.path("samples/search-page.json")], environment: ["LAYOUT_WORKER_PRETTY": "true"])
            #expect(pretty.status == 0 && pretty.out.split(separator: "\n").count > 10, "\(pretty.err)")
            let notAFlagValue = try cli(
                ["compile", Fixtures.path("samples/search-page.json")], environment: ["LAYOUT_WORKER_PRETTY": "maybe"])
            #expect(notAFlagValue.status == 64 && notAFlagValue.err.contains("--pretty is a flag; give true or false"))
            let unknown = try cli(
                ["compile", Fixtures.path("samples/search-page.json")], environment: ["LAYOUT_WORKER_NOPE": "1"])
            #expect(unknown.status == 64, "\(unknown.err)")
            #expect(unknown.err.contains("unknown environment variable LAYOUT_WORKER_NOPE: no command has --nope"))
            #expect(!unknown.err.contains("did you mean"), "\(unknown.err)")
        }
    }

    /// Values are shown only for properties librdkafka knows whose names say nothing secret (an allow-list). A
    /// misspelled key is refused by name before anything is logged, with the property it was likely meant to be,
    /// and its value appears nowhere; so does a correct secret's, while a known harmless value is shown.
    @Test func secretsAreRedactedByValueAndNeverEchoed() async throws {
        try await offThePool {
            let secret = "s3cret-\(UUID().uuidString.prefix(8))"
            // A malformed entry holding a secret: the error says where, not what.
            let malformed = try cli(["tail", "--topic", "t", "--brokers", "127.0.0.1:1", "--kafka-property", secret])
            #expect(malformed.status == 64 && !malformed.err.contains(secret), "\(malformed.err)")
            let serve = [
                "serve", "--input", "in", "--output", "out", "--http", "off", "--stop-after", "1", "--log-level",
                "debug",
                "--config", Fixtures.path("config/default.yaml"), "--crash-state-dir", "off", "--shutdown-timeout-ms",
                "500", "--brokers", "127.0.0.1:1",
            ]
            for (flag, key, meant) in [
                ("--kafka-property", "sasl.pasword", "sasl.password"),
                ("--consumer-property", "ssl.keystore.pasword", "ssl.keystore.password"),
                ("--producer-property", "sasl.oauthbearer.client.secert", "sasl.oauthbearer.client.secret"),
                ("--kafka-property", "sasl.passwd", "sasl.password"),
            ] {
                let r = try cli(serve + [flag, "\(key)=\(secret)"])
                #expect(r.status == 64, "\(key): \(r.status)")
                #expect(r.err.contains("\(key): no such librdkafka property; did you mean '\(meant)'?"), "\(r.err)")
                #expect(!r.err.contains(secret) && !r.out.contains(secret), "\(key): a secret leaked: \(r.err)")
            }
            // The same from the environment, and Java's sasl.jaas.config, which librdkafka does not take.
            let typo = try cli(serve, environment: ["LAYOUT_WORKER_KAFKA_SASL_PASWORD": secret])
            #expect(typo.status == 64 && typo.err.contains("sasl.pasword") && !typo.err.contains(secret), "\(typo.err)")
            let jaas = try cli(
                serve,
                environment: [
                    "LAYOUT_WORKER_KAFKA_SASL_JAAS_CONFIG":
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"\(secret)\";"
                ])
            #expect(jaas.status == 64 && jaas.err.contains("sasl.jaas.config"), "\(jaas.err)")
            #expect(!jaas.err.contains(secret), "\(jaas.err)")
            // Correctly spelled: the worker runs; the secret is redacted wherever it would appear, a known value is not.
            let r = try runCLI(
                serve + [
                    "--kafka-property", "ssl.key.password=\(secret)", "--kafka-property", "socket.timeout.ms=12345",
                ],
                environment: ["LAYOUT_WORKER_KAFKA_SASL_PASSWORD": secret + "-env"]
            ) { said in
                // Interrupted once it has said its settings (they are logged at start).
                _ = waitUntil(seconds: 30, every: 0.05) {
                    let text = said()
                    return ["ssl.key.password=", "sasl.password=", "socket.timeout.ms="].allSatisfy {
                        text.contains($0)
                    }
                }
            }
            #expect(
                r.err.contains("ssl.key.password=[redacted]") && r.err.contains("sasl.password=[redacted]")
                    && r.err.contains("socket.timeout.ms=12345"), "\(r.err.prefix(1500))")
            #expect(!r.err.contains(secret), "a secret leaked: \(r.err.prefix(2000))")
        }
    }

    /// A topic a command writes that is also its input is refused at start (exit 64), naming the flag and the topic:
    /// serve would consume its own records, a replay write into the range it reads.
    @Test func aTopicWrittenThatIsAlsoTheInputIsRefused() async throws {
        try await offThePool {
            let config = ["--config", Fixtures.path("config/default.yaml"), "--brokers", "127.0.0.1:1"]
            let serve = ["serve", "--http", "off"] + config
            let same = try cli(serve + ["--input", "responses", "--output", "responses"])
            #expect(same.status == 64, "\(same.err)")
            #expect(
                same.err.contains(
                    "--output responses is also the input topic: serve would read back what it writes, a loop"),
                "\(same.err)")
            let pattern = try cli(serve + ["--input", "^resp.*", "--output", "responses-out"])
            #expect(pattern.status == 64)
            #expect(pattern.err.contains("--output responses-out matches the input pattern ^resp.*"), "\(pattern.err)")
            let changes = try cli(serve + ["--input", "in", "--output", "out", "--changes-topic", "in"])
            #expect(changes.status == 64)
            #expect(changes.err.contains("--changes-topic in is also the input topic"), "\(changes.err)")
            let replay = ["replay"] + config
            let replayed = try cli(replay + ["--input", "t", "--output", "t"])
            #expect(replayed.status == 64)
            #expect(
                replayed.err.contains("--output t is also the input topic: replay would read back"), "\(replayed.err)")
            let deadLetter = try cli(replay + ["--input", "t", "--output", "u", "--dead-letter", "t"])
            #expect(deadLetter.status == 64)
            #expect(deadLetter.err.contains("--dead-letter t is also the input topic"), "\(deadLetter.err)")
        }
    }

    /// Start errors name the setting and say what is wrong, with exit 64 (usage) or 2 (config).
    @Test func startErrorsNameTheSettingAndSayWhatIsWrong() async throws {
        try await offThePool {
            let serve = [
                "serve", "--input", "in", "--output", "out", "--http", "off", "--brokers", "127.0.0.1:1",
                "--config", Fixtures.path("config/default.yaml"),
            ]
            let regex = try cli(serve + ["--input", "^["])
            #expect(
                regex.status == 64 && regex.err.contains("input '^[' is not a valid regular expression"), "\(regex.err)"
            )
            let negative = try cli(serve + ["--batch-size", "-5"])
            #expect(
                negative.status == 64 && negative.err.contains("batch-size must be at least 1, not -5"),
                "\(negative.err)")
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).yaml")
            try "# nothing here\n".write(to: empty, atomically: true, encoding: .utf8)
            let emptyConfig = try cli(serve + ["--config", empty.path])
            #expect(emptyConfig.status == 2 && emptyConfig.err.contains("[empty-config]"), "\(emptyConfig.err)")
            // The ops port taken by another listener: named, before any client starts.
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(listener) }
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &addr) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
                        && listen(listener, 1) == 0
                }
            }
            #expect(bound)
            let port = UInt16(bigEndian: addr.sin_port)
            let taken = try cli(serve.filter { $0 != "off" && $0 != "--http" } + ["--http", "127.0.0.1:\(port)"])
            #expect(
                taken.status == 64
                    && taken.err.contains("http 127.0.0.1:\(port): cannot listen there (Address already in use)"),
                "\(taken.err)")
            #expect(!taken.err.contains("CancellationError"), "\(taken.err)")
        }
    }
}
