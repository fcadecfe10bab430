import Foundation
import Kafka
import Logging
import Ops

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The crash-loop breaker. A trap in Swift cannot be caught, and a message that makes the worker trap would kill
/// every worker that takes its partition, forever (its offset is never committed). So before compiling a batch the
/// worker writes which messages it holds into a small file, and empties that file once they are compiled:
///
/// - a worker that starts and finds the file not empty died while compiling those messages: each gets a crash;
/// - a batch holding a message with a crash is compiled one message at a time, so a second death names the message;
/// - a message with `crashesToDeadLetter` crashes is dead-lettered as `worker-crash` without being compiled.
///
/// Two files per consumer group live in a directory that outlives the process (an `emptyDir` volume in Kubernetes
/// survives container restarts): `<group>.compiling` (one `topic/partition/offset` line per message, rewritten in
/// place for every batch: a write and a truncate, no fsync, since a process that dies leaves its writes in the
/// kernel) and `<group>.crashes` (the counts, rewritten only when they change). A partition taken over by another
/// replica starts counting afresh there, so a poison message costs at most two deaths per replica that holds it.
final class CrashBreaker {
    static let crashesToDeadLetter = 2
    /// Crash counts kept at most (the smallest keys dropped first): bounded whatever happens.
    static let maxRemembered = 10_000

    let directory: URL
    let compilingURL: URL
    let crashesURL: URL
    /// Deaths while compiling each message (`topic/partition/offset`), for messages not compiled since.
    private(set) var crashes: [String: Int] = [:]
    private var compilingFD: Int32 = -1
    private var compilingLength = 0
    var logger: Logger
    /// Why the breaker cannot keep its state (nil while it can); reported through `onStateChange`.
    private(set) var offReason: String?
    /// Called when the breaker turns off (with the reason) or works again (nil).
    var onStateChange: (String?) -> Void = { _ in }

    init(directory: String, group: String, logger: Logger) {
        let safe = String(group.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        self.directory = URL(fileURLWithPath: directory)
        compilingURL = self.directory.appendingPathComponent("\(safe).compiling")
        crashesURL = self.directory.appendingPathComponent("\(safe).crashes")
        self.logger = logger
    }

    deinit {
        if compilingFD >= 0 { close(compilingFD) }
    }

    /// The worker's breaker in `--crash-state-dir`, its state shown by the status and a metric; nil (and the
    /// status saying why) with `--crash-state-dir off`.
    static func forWorker(settings: ServeSettings, status: WorkerStatus, metrics: WorkerMetrics, logger: Logger)
        -> CrashBreaker?
    {
        guard let dir = settings.crashStateDirectory else {
            status.setCrashBreakerOff("--crash-state-dir off")
            metrics.crashBreaker(enabled: false)
            return nil
        }
        let breaker = CrashBreaker(directory: dir, group: settings.groupID, logger: logger)
        breaker.onStateChange = { [status, metrics] reason in
            status.setCrashBreakerOff(reason)
            metrics.crashBreaker(enabled: reason == nil)
        }
        metrics.crashBreaker(enabled: true)
        return breaker
    }

    static func key(_ m: KafkaMessage) -> String { "\(m.topic)/\(m.partition)/\(m.offset)" }

    /// Reads what the previous process left and counts a crash for every message it was compiling.
    func recover() {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            logger.error(
                "cannot create the crash-state directory; the crash-loop breaker is off",
                metadata: ["path": .string(directory.path), "error": .string("\(error)")])
            setOff("cannot create \(directory.path): \(error.localizedDescription)")
            return
        }
        if let text = try? String(contentsOf: crashesURL, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                guard let tab = line.lastIndex(of: "\t"), let n = Int(line[line.index(after: tab)...]), n > 0 else {
                    continue
                }
                crashes[String(line[..<tab])] = n
            }
        }
        let compiling = ((try? String(contentsOf: compilingURL, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
        compilingFD = open(compilingURL.path, O_WRONLY | O_CREAT, 0o644)
        if compilingFD < 0 {
            let reason = String(cString: strerror(errno))
            logger.error(
                "cannot open the crash-state file; the crash-loop breaker is off",
                metadata: ["path": .string(compilingURL.path), "error": .string(reason)])
            setOff("cannot open \(compilingURL.path): \(reason)")
            return
        }
        // What the previous process left is there until the first write: the next write must cut all of it.
        compilingLength = max(0, Int(clamping: lseek(compilingFD, 0, SEEK_END)))
        setOff(nil)
        guard !compiling.isEmpty else { return }
        for key in compiling { crashes[key, default: 0] += 1 }
        let worst = compiling.map { crashes[$0] ?? 0 }.max() ?? 0
        logger.error(
            "the previous process died while compiling; those messages are compiled one at a time now, and one it died on \(Self.crashesToDeadLetter) times is dead-lettered as worker-crash",
            metadata: [
                "messages": .stringConvertible(compiling.count), "first": .string(compiling[0]),
                "crashes": .stringConvertible(worst),
            ])
        // Counted once: a process that dies before its first batch must not count these deaths again.
        saveCrashes()
        writeCompiling([])
    }

    /// Deaths so far while compiling `message`.
    func crashes(_ message: KafkaMessage) -> Int {
        crashes.isEmpty ? 0 : crashes[Self.key(message)] ?? 0
    }

    /// Notes that `batch` is about to be compiled.
    func begin(_ batch: [KafkaMessage]) {
        var text = ""
        text.reserveCapacity(batch.count * 32)
        for m in batch {
            text += Self.key(m)
            text += "\n"
        }
        writeCompiling(Array(text.utf8))
    }

    /// Notes that `batch` was compiled: none of it is suspect any more.
    func end(_ batch: [KafkaMessage]) {
        writeCompiling([])
        guard !crashes.isEmpty else { return }
        let before = crashes.count
        for m in batch { crashes[Self.key(m)] = nil }
        if crashes.count != before { saveCrashes() }
    }

    /// Forgets the crash counts of `batch` (dead-lettered without compiling).
    func forget(_ batch: [KafkaMessage]) { end(batch) }

    /// Drops crash counts of partitions this worker no longer holds (another worker counts them afresh).
    func retain(partitions: Set<Partition>) {
        guard !crashes.isEmpty else { return }
        let held = Set(partitions.map { "\($0.topic)/\($0.number)/" })
        let before = crashes.count
        crashes = crashes.filter { key, _ in
            guard let slash = key.lastIndex(of: "/") else { return false }
            return held.contains(String(key[...slash]))
        }
        if crashes.count != before { saveCrashes() }
    }

    /// Replaces the compiling file's content in place: one write and, when it shrinks, one truncate.
    private func writeCompiling(_ bytes: [UInt8]) {
        guard compilingFD >= 0, bytes.count > 0 || compilingLength > 0 else { return }
        // Shortened first, so the file never holds the new lines followed by stale ones.
        if bytes.count < compilingLength { _ = ftruncate(compilingFD, 0) }
        let written = bytes.isEmpty ? 0 : bytes.withUnsafeBytes { pwrite(compilingFD, $0.baseAddress, $0.count, 0) }
        if written != bytes.count {
            let reason = String(cString: strerror(errno))
            if offReason == nil {
                logger.error(
                    "cannot write the crash-state file; the crash-loop breaker is off until a write succeeds",
                    metadata: ["path": .string(compilingURL.path), "error": .string(reason)])
            }
            setOff("cannot write \(compilingURL.path): \(reason)")
        } else {
            setOff(nil)
        }
        compilingLength = bytes.count
    }

    /// Notes whether the breaker works (nil) or why not, telling `onStateChange` when that changes.
    private func setOff(_ reason: String?) {
        guard reason != offReason else { return }
        if reason == nil, offReason != nil {
            logger.info("the crash-state file is writable again; the crash-loop breaker is on")
        }
        offReason = reason
        onStateChange(reason)
    }

    /// Writes the crash counts (to a temporary file, then renamed, so a kill mid-write leaves the previous counts).
    private func saveCrashes() {
        if crashes.count > Self.maxRemembered {
            for key in crashes.keys.sorted().prefix(crashes.count - Self.maxRemembered) { crashes[key] = nil }
        }
        let text = crashes.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
        do {
            let temporary = crashesURL.appendingPathExtension("tmp")
            try Data(text.utf8).write(to: temporary)
            if rename(temporary.path, crashesURL.path) != 0 { throw CocoaError(.fileWriteUnknown) }
        } catch {
            logger.warning(
                "cannot write the crash-state file",
                metadata: ["path": .string(crashesURL.path), "error": .string("\(error)")])
        }
    }
}
