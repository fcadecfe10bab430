import Dispatch

extension DispatchTime {
    /// This time plus `duration` (the settings' durations are `Duration`s; Dispatch's clock takes nanoseconds).
    func advanced(by duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        return self + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
