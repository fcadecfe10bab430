import Foundation
public import Prometheus

/// The `/metrics` body: the registry's families with the catalog's `# HELP` lines, then the build info and the
/// process's figures.
public struct MetricsExposition: Sendable {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    let registry: PrometheusCollectorRegistry
    /// Labels of `layout_worker_build_info`.
    let build: [(String, String)]

    public init(registry: PrometheusCollectorRegistry, build: [(String, String)]) {
        self.registry = registry
        self.build = build
    }

    /// The exposition text.
    public func render() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16_384)
        let body = registry.emitToBuffer()
        // Each `# TYPE name kind` line gets the family's help just before it.
        var start = 0
        while start < body.count {
            var end = start
            while end < body.count && body[end] != 0x0A { end += 1 }
            let line = body[start..<end]
            if line.starts(with: Self.typePrefix) {
                let rest = line.dropFirst(Self.typePrefix.count)
                let name = String(decoding: rest.prefix { $0 != 0x20 }, as: UTF8.self)
                let help = MetricCatalog.family(named: name)?.help ?? "A layout-worker metric."
                out.append(contentsOf: "# HELP \(name) \(Self.escape(help))\n".utf8)
            }
            out.append(contentsOf: line)
            out.append(0x0A)
            start = end + 1
        }
        let labels = build.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",")
        append(MetricCatalog.buildInfo, sample: "{\(labels)} 1", to: &out)
        let p = ProcessMetrics.read()
        if let v = p.residentBytes { append(MetricCatalog.processResidentMemory, sample: " \(v)", to: &out) }
        if let v = p.virtualBytes { append(MetricCatalog.processVirtualMemory, sample: " \(v)", to: &out) }
        if let v = p.cpuSeconds { append(MetricCatalog.processCPUSeconds, sample: " \(v)", to: &out) }
        if let v = p.openFDs { append(MetricCatalog.processOpenFDs, sample: " \(v)", to: &out) }
        if let v = p.maxFDs { append(MetricCatalog.processMaxFDs, sample: " \(v)", to: &out) }
        if let v = p.startTimeSeconds { append(MetricCatalog.processStartTime, sample: " \(v)", to: &out) }
        return out
    }

    private func append(_ family: MetricFamily, sample: String, to out: inout [UInt8]) {
        out.append(
            contentsOf:
                "# HELP \(family.name) \(Self.escape(family.help))\n# TYPE \(family.name) \(family.kind.rawValue)\n\(family.name)\(sample)\n"
                .utf8)
    }

    private static let typePrefix = Array("# TYPE ".utf8)

    /// Help text escaping: backslash and newline.
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Label value escaping: backslash, double quote and newline.
    static func escapeLabel(_ s: String) -> String {
        escape(s).replacingOccurrences(of: "\"", with: "\\\"")
    }
}
