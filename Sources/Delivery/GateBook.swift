/// The gates a `DeliveryEngine` made and has not opened or dropped, with the parts (token, index) waiting for each.
struct GateBook {
    private var gates: [Int: [(token: Int, part: Int)]] = [:]
    private var next = 1

    /// A new gate, for parts sent after this call.
    mutating func make() -> DeliveryEngine.Gate {
        defer { next += 1 }
        gates[next] = []
        return DeliveryEngine.Gate(id: next)
    }

    /// Part `part` of `token` waits for `gate`; false when the gate was already opened or dropped.
    mutating func wait(_ gate: DeliveryEngine.Gate, token: Int, part: Int) -> Bool {
        guard gates[gate.id] != nil else { return false }
        gates[gate.id]!.append((token, part))
        return true
    }

    /// Resolves `gate` (opened or dropped): the parts that waited for it; nil when it was resolved before.
    mutating func resolve(_ gate: DeliveryEngine.Gate) -> [(token: Int, part: Int)]? {
        gates.removeValue(forKey: gate.id)
    }

    /// Forgets that `token` waits for `gate` (its entry was removed).
    mutating func unwait(_ gate: DeliveryEngine.Gate, token: Int) {
        gates[gate.id]?.removeAll { $0.token == token }
    }
}
