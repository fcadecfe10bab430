import ArgumentParser
import Foundation
import LayoutPreview
import Logging
import Ops
import Prometheus
import ServiceLifecycle

/// `layout-worker preview`: a live page of the layouts a mapping config makes, from response files or a topic.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a live page drawing the layouts of responses (or of one page key followed on a topic).",
        discussion: """
            With RESPONSE files, each is compiled with the config and drawn as a phone-width collection view; \
            editing a response or the config redraws the page in place (the change set is animated). With --topic \
            and --key, the records and change sets of that key are followed from the topic instead (from its \
            beginning, by assignment: no consumer group is joined). Stop with Ctrl-C.
            """
    )

    @Option(SettingTable.config) var config: String?
    @Option(SettingTable.host) var host: String?
    @Option(SettingTable.port) var port: String?
    @Option(help: "Follow this topic's records and change sets instead of files (with --key).") var topic: String?
    @Option(help: "The page key to follow on --topic.") var key: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var limit: InputLimitOptions
    @OptionGroup var accept: AcceptCheckErrorsOption
    @Argument(help: "Assembler responses to draw (JSON files).") var responses: [String] = []

    func validate() throws {
        if topic != nil {
            guard key != nil else { throw ValidationError("--topic needs --key: the page key to follow") }
            guard responses.isEmpty else { throw ValidationError("give either response files or --topic, not both") }
        } else {
            guard key == nil else { throw ValidationError("--key goes with --topic") }
            guard !responses.isEmpty else {
                throw ValidationError("give one or more response files, or --topic and --key")
            }
        }
    }

    func run() async throws {
        let resolved = try connection.resolve(clientID: "layout-worker-preview")
        let logger = resolved.logger
        let hub: PreviewHub
        let source: any Service
        if let topic, let key {
            hub = PreviewHub(pageNames: [key])
            source = TopicFollower(kafka: resolved.kafka, topic: topic, key: key, hub: hub, logger: logger)
        } else {
            let configPath =
                try resolved.sources.read(SettingTable.config, config) ?? DefaultMappingConfig.path()
            hub = PreviewHub(pageNames: responses)
            source = ResponseFilesSource(
                config: configPath, responses: responses, hub: hub, maxInputBytes: limit.maxInputBytes,
                acceptCheckErrors: accept.accept, logger: logger)
        }
        let host = try resolved.sources.read(SettingTable.host, self.host)
        let port = try resolved.sources.read(SettingTable.port, self.port) ?? SettingTable.defaultPreviewPort
        let exposition = MetricsExposition(
            registry: PrometheusCollectorRegistry(), build: OpsListener.build)
        try await PreviewServer.run(
            host: host, port: port, hub: hub, sources: [source], logger: logger, metrics: exposition.render,
            onListening: { bound in
                Output.line("preview: http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(bound)/ (Ctrl-C to stop)")
            })
    }
}
