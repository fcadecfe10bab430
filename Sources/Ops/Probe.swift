/// A probe's answer: passing with the state, or failing with the reason.
public enum Probe: Sendable, Equatable {
    case passing(String)
    case failing(String)

    public var passes: Bool { if case .passing = self { true } else { false } }
    /// What the probe says: the state when passing, the reason when failing.
    public var detail: String {
        switch self {
        case .passing(let s), .failing(let s): s
        }
    }
}

/// What a command's `/healthz` and `/readyz` ask: the worker's status, the gateway's.
public protocol Probed: Sendable {
    /// Alive: the command's loop keeps turning (a failing liveness restarts the process).
    func liveness() -> Probe
    /// Ready to take traffic (a failing readiness takes the process out of its load balancer).
    var readiness: Probe { get }
}
