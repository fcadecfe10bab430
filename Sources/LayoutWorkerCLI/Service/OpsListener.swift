import ArgumentParser
import Kafka
import Logging
import Ops
import Prometheus
import ServiceLifecycle

/// The ops endpoints a long-running command mounts on `--http` (`/healthz`, `/readyz`, `/metrics`): `serve` and
/// `replay` through `OpsServer`, the gateway on its own SwiftNIO ops port; every one checks the address alike.
enum OpsListener {
    /// The labels of `layout_worker_build_info` every command's `/metrics` shows.
    static let build = [
        ("version", WorkerVersion.current), ("librdkafka", Librdkafka.version), ("swift", WorkerVersion.swift),
    ]

    /// The address `text` names, nil for `off`; refused when it is not an address or cannot be listened on, before
    /// anything starts.
    static func address(_ text: String) throws -> OpsAddress? {
        guard SettingValidation.unlessOff(text) != nil else { return nil }
        guard let address = OpsAddress(parsing: text) else {
            throw ValidationError("http must be host:port, [ipv6]:port or off, not '\(text)'")
        }
        if let problem = address.bindProblem() {
            throw ValidationError("http \(address): cannot listen there (\(problem)); choose another address or 'off'")
        }
        return address
    }

    /// The endpoints at `address` as a service of the command's group: `probes` answer `/healthz` and `/readyz`,
    /// `registry` `/metrics`. Their failing to bind stops everything.
    static func service(
        at address: OpsAddress, registry: PrometheusCollectorRegistry, probes: some Probed, logger: Logger
    ) -> ServiceGroupConfiguration.ServiceConfiguration {
        let exposition = MetricsExposition(registry: registry, build: build)
        return .init(
            service: OpsServer.application(address: address, exposition: exposition, probes: probes, logger: logger),
            successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup)
    }
}
