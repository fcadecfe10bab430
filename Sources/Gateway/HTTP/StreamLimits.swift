import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How many connections and streams one gateway takes, from its file descriptors and memory. At start the soft
/// `RLIMIT_NOFILE` is raised to the hard limit (systemd's soft default is 1,024); every connection is a
/// descriptor, and a process out of them cannot even accept a connection to refuse it. So the API port takes at
/// most `connections` (then it stops accepting: the kernel's backlog holds the rest, nothing spins), streams stop at
/// `streams` (beyond, a request for one is answered 503 with `Retry-After`, from the headroom between the two), and
/// `opsConnections` descriptors are kept for the ops port, so probes and `/metrics` always answer.
public struct StreamLimits: Sendable, Equatable, CustomStringConvertible {
    /// The soft and hard descriptor limits after the raise.
    public var descriptors: (soft: Int, hard: Int)
    /// Connections the API port holds at once.
    public var connections: Int
    /// Streams followed at once.
    public var streams: Int
    /// Connections the ops port holds at once.
    public var opsConnections: Int
    /// What bounds `streams`: "descriptors", "memory" or "--max-streams".
    public var boundBy: String
    public var retryAfterSeconds = 5

    public static func == (a: StreamLimits, b: StreamLimits) -> Bool {
        a.descriptors == b.descriptors && a.connections == b.connections && a.streams == b.streams
            && a.opsConnections == b.opsConnections && a.boundBy == b.boundBy
    }

    /// Descriptors kept for what is not a client connection: the brokers' sockets, the page store's files (RocksDB
    /// opens at most 256, far fewer for most stores), event loops' epoll and eventfds, logs.
    public static let reservedDescriptors = 96
    /// Ops connections (probes, scrapes, the live page).
    public static let opsShare = 32
    /// Memory a stream may cost, all told (its connection in user space and the kernel's socket buffers), for
    /// the cap from memory.
    public static let bytesPerStream = 16 * 1024

    /// The limits for a process with `descriptors`, `inUse` of them open, `memory` bytes (nil: unknown) of which
    /// `heldBytes` go to pages, and at most `configured` streams.
    public static func derive(
        descriptors: (soft: Int, hard: Int), inUse: Int, memory: Int?, heldBytes: Int, configured: Int?
    ) -> StreamLimits {
        let free = max(0, descriptors.soft - inUse - reservedDescriptors - opsShare)
        let connections = max(8, free)
        // Room to answer 503s while the streams are full: a twentieth, at least 8.
        let headroom = max(8, connections / 20)
        var streams = max(1, connections - headroom)
        var boundBy = "descriptors"
        if let memory {
            let fromMemory = max(1, (memory - heldBytes - 128 * 1024 * 1024) / bytesPerStream)
            if fromMemory < streams { (streams, boundBy) = (fromMemory, "memory") }
        }
        if let configured, configured < streams { (streams, boundBy) = (configured, "--max-streams") }
        return StreamLimits(
            descriptors: descriptors, connections: connections, streams: streams, opsConnections: opsShare,
            boundBy: boundBy)
    }

    /// Raises the soft descriptor limit to the hard one and derives the limits for this process.
    public static func forThisProcess(heldBytes: Int, configured: Int?) -> StreamLimits {
        derive(
            descriptors: raiseDescriptorLimit(), inUse: openDescriptors(), memory: memoryLimit(), heldBytes: heldBytes,
            configured: configured)
    }

    /// Sets the soft `RLIMIT_NOFILE` to the hard limit; the limits after.
    public static func raiseDescriptorLimit() -> (soft: Int, hard: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (1_024, 1_024) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let clamp = { (v: rlim_t) -> Int in v > rlim_t(Int32.max) ? Int(Int32.max) : Int(v) }
        return (clamp(limit.rlim_cur), clamp(limit.rlim_max))
    }

    /// Descriptors open now.
    static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 16
    }

    /// The memory this process may use: its cgroup's limit, else the machine's.
    static func memoryLimit() -> Int? {
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), n < 1 << 50
            {
                return n
            }
        }
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? pages * size : nil
    }

    public var description: String {
        "descriptors \(descriptors.soft) (hard \(descriptors.hard)): streams up to \(streams) (bound by \(boundBy)), API connections up to \(connections), \(opsConnections) kept for the ops port"
    }
}
