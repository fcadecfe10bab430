import ArgumentParser
import Foundation
import Kafka

/// `layout-worker produce`: publishes responses (one file per message, or NDJSON lines from stdin).
struct ProduceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "produce", abstract: "Publish responses to a topic (files, or NDJSON on stdin).")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Topic.") var topic: String
    @Option(help: "Message key (default: the file name, or stdin:LINE).") var key: String?
    @Flag(name: .customLong("tombstone"), help: "Publish one tombstone (null value) for --key instead.") var tombstone =
        false
    /// The same limit as `serve`'s `--max-message-bytes` by default: what serve would dead-letter is refused here.
    @OptionGroup var limit: InputLimitOptions
    @Argument(help: "Files; none or '-' reads NDJSON from stdin.") var files: [String] = []

    func run() throws {
        var kafka = try connection.resolve(defaultLevel: .warning).kafka
        // Every input is read before anything is sent: an unreadable or refused one stops the command (exit 1)
        // with nothing published.
        let messages = try self.messages()
        for (k, v) in ["linger.ms": "5", "message.max.bytes": "67108864"] where kafka.properties[k] == nil {
            kafka.properties[k] = v
        }
        // Someone must answer before anything is queued: librdkafka would hold the messages for the 30 s of the flush
        // and say only that they are still queued (no broker answering is said by `unreachableMessage`). A topic
        // the brokers do not know is left to them (a cluster may create it on the first message).
        _ = try TopicRangeReader.partitions(of: topic, configuration: kafka)
        let producer = try KafkaProducer(configuration: kafka)
        for (n, (name, value)) in messages.enumerated() {
            try producer.produce(topic: topic, key: Array((key ?? name).utf8), value: value, token: n)
        }
        let (reports, pending) = producer.flush(timeoutMs: 30_000)
        let failures = reports.filter { $0.error != nil }
        for f in failures { Output.error("message \(f.token): \(f.error!)") }
        Output.line("produced \(reports.count - failures.count) of \(messages.count) message(s) to \(topic)")
        if !failures.isEmpty || pending > 0 { throw ExitCode(1) }
    }

    /// The messages to publish: one tombstone, the lines of standard input, or the files; an input that cannot be
    /// read or is over the limit is said on stderr and stops the command.
    private func messages() throws -> [(key: String, value: [UInt8]?)] {
        if tombstone {
            guard let key else { throw ValidationError("--tombstone needs --key") }
            return [(key, nil)]
        }
        var messages: [(key: String, value: [UInt8]?)] = []
        var refused: InputError?
        if files.isEmpty || files == ["-"] {
            InputSource.forEachStandardInputLine(maxBytes: limit.maxInputBytes) { line in
                switch line {
                case .success(let i): messages.append((i.name, i.bytes))
                case .failure(let e): refused = refused ?? e
                }
            }
        } else {
            for f in files where refused == nil {
                switch InputSource.file(f, maxBytes: limit.maxInputBytes) {
                case .success(let i): messages.append(((f as NSString).lastPathComponent, i.bytes))
                case .failure(let e): refused = e
                }
            }
        }
        if let refused {
            Output.error("\(refused.name): \(refused.message); nothing was produced")
            throw ExitCode(1)
        }
        return messages
    }
}
