import Foundation
import Kafka
import Logging

/// The crash-loop breaker. A trap in Swift cannot be caught, and a message that makes the worker trap would kill
/// every worker that takes its partition, forever (its offset is never committed). So before compiling a batch the
/// worker writes which messages it holds into a small file, and clears that list once they are compiled:
///
/// - a worker that starts and finds the list not cleared died while compiling those messages: each gets a crash;
/// - a batch holding a message with a crash is compiled one message at a time, so a second death names the message;
/// - a message with `crashesToDeadLetter` crashes is dead-lettered as `worker-crash` without being compiled.
///
/// The file lives in a directory that outlives the process (an `emptyDir` volume in Kubernetes survives container
/// restarts), one file per consumer group. A partition taken over by another replica starts counting afresh there,
/// so a poison message costs at most two deaths per replica that holds it.
final class CrashBreaker {
    static let crashesToDeadLetter = 2
    /// Crash counts kept at most (oldest dropped): bounded whatever happens.
    static let maxRemembered = 10_000

    struct State: Codable, Equatable {
        var version = 1
        /// Messages (`topic/partition/offset`) being compiled right now.
        var compiling: [String] = []
        /// Deaths while compiling each message, for messages not compiled successfully since.
        var crashes: [String: Int] = [:]
    }

    let url: URL
    var state = State()
    var logger: Logger

    init(directory: String, group: String, logger: Logger) {
        let safe = String(group.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        url = URL(fileURLWithPath: directory).appendingPathComponent("\(safe).crash-state.json")
        self.logger = logger
    }

    static func key(_ m: KafkaMessage) -> String { "\(m.topic)/\(m.partition)/\(m.offset)" }

    /// Reads the file left by the previous process and counts a crash for every message it was compiling.
    func recover() {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            logger.error("cannot create the crash-state directory; the crash-loop breaker is off",
                         metadata: ["path": .string(url.deletingLastPathComponent().path), "error": .string("\(error)")])
            return
        }
        guard let data = try? Data(contentsOf: url) else { return }
        guard let saved = try? JSONDecoder().decode(State.self, from: data) else {
            logger.warning("unreadable crash-state file; starting afresh", metadata: ["path": .string(url.path)])
            return
        }
        state = saved
        guard !state.compiling.isEmpty else { return }
        for key in state.compiling { state.crashes[key, default: 0] += 1 }
        let worst = state.compiling.map { state.crashes[$0] ?? 0 }.max() ?? 0
        logger.error("the previous process died while compiling; those messages are compiled one at a time now, and one it died on \(Self.crashesToDeadLetter) times is dead-lettered as worker-crash", metadata: [
            "messages": .stringConvertible(state.compiling.count), "first": .string(state.compiling.first ?? ""),
            "crashes": .stringConvertible(worst),
        ])
        state.compiling = []
        save()
    }

    /// Deaths so far while compiling `message`.
    func crashes(_ message: KafkaMessage) -> Int {
        state.crashes.isEmpty ? 0 : state.crashes[Self.key(message)] ?? 0
    }

    /// Notes that `batch` is about to be compiled.
    func begin(_ batch: [KafkaMessage]) {
        state.compiling = batch.map(Self.key)
        save()
    }

    /// Notes that `batch` was compiled: none of it is suspect any more.
    func end(_ batch: [KafkaMessage]) {
        state.compiling = []
        if !state.crashes.isEmpty { for m in batch { state.crashes[Self.key(m)] = nil } }
        save()
    }

    /// Forgets the crash counts of `batch` (dead-lettered without compiling).
    func forget(_ batch: [KafkaMessage]) { end(batch) }

    /// Drops crash counts of partitions this worker no longer holds (another worker counts them afresh).
    func retain(partitions: Set<TopicPartition>) {
        guard !state.crashes.isEmpty else { return }
        let held = Set(partitions.map { "\($0.topic)/\($0.partition)/" })
        let before = state.crashes.count
        state.crashes = state.crashes.filter { key, _ in
            guard let slash = key.lastIndex(of: "/") else { return false }
            return held.contains(String(key[...slash]))
        }
        if state.crashes.count != before { save() }
    }

    /// Writes the state (to a temporary file, then renamed, so a kill mid-write leaves the previous state).
    private func save() {
        if state.crashes.count > Self.maxRemembered {
            for key in state.crashes.keys.sorted().prefix(state.crashes.count - Self.maxRemembered) { state.crashes[key] = nil }
        }
        do {
            let data = try JSONEncoder().encode(state)
            let temporary = url.appendingPathExtension("tmp")
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 { throw CocoaError(.fileWriteUnknown) }
        } catch {
            logger.warning("cannot write the crash-state file", metadata: ["path": .string(url.path), "error": .string("\(error)")])
        }
    }
}
