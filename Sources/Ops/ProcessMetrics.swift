import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process's own figures, read from `/proc` when `/metrics` is scraped (Linux; elsewhere they are left out).
struct ProcessMetrics {
    var residentBytes: Int?
    var virtualBytes: Int?
    var cpuSeconds: Double?
    var startTimeSeconds: Double?
    var openFDs: Int?
    var maxFDs: Int?

    /// Reads the current figures.
    static func read() -> ProcessMetrics {
        var m = ProcessMetrics()
        #if os(Linux)
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let page = sysconf(Int32(_SC_PAGESIZE))
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            // Fields after the command name (which may hold spaces): state is field 3, so index 0 here is field 3.
            let f = stat[stat.index(after: close)...].split(separator: " ")
            if f.count > 21, ticks > 0 {
                if let u = Double(f[11]), let s = Double(f[12]) { m.cpuSeconds = (u + s) / ticks }
                if let start = Double(f[19]), let boot = bootTime() { m.startTimeSeconds = boot + start / ticks }
                m.virtualBytes = Int(f[20])
                if let pages = Int(f[21]) { m.residentBytes = pages.multipliedReportingOverflow(by: page).partialValue }
            }
        }
        m.openFDs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { $0.count }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { m.maxFDs = Int(clamping: limit.rlim_cur) }
        #endif
        return m
    }

    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
