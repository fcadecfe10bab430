import Kafka

/// The input messages a `DeliveryEngine` has not settled, by token, with the state of each of their parts and the
/// counts the engine steers by (parts unacknowledged, parts waiting to be sent again, bytes held). Every change
/// that moves a count goes through a method here, so the counts cannot drift from the entries.
struct InFlightTable {
    /// An input message whose outputs are not all acknowledged yet.
    struct Entry {
        let message: KafkaMessage
        /// The message's span (ended when it is settled) and the trace headers of its outputs.
        let span: MessageSpan
        var purpose: DeliveryEngine.Purpose
        var parts: [DeliveryEngine.Part]
        /// Bit `i` set: part `i` is produced and not yet acknowledged.
        var unacknowledged: UInt64 = 0
        /// Bit `i` set: part `i` waits to be sent (again).
        var waiting: UInt64 = 0
        /// Bit `i` set: part `i` is produced once every other part is acknowledged (`Part.afterOthers`).
        var deferred: UInt64 = 0
        var rejection: (topic: String, error: KafkaError)?
        /// For a dead letter: how much of the input it keeps, and why the input is dead-lettered.
        var cut = DeadLetter.Cut.none
        var reason = ""
        /// Input and output bytes held for this message (the in-flight byte budget): counted by `add`, less the
        /// outputs already acknowledged.
        var bytes = 0
        /// Bit `i` set: part `i`'s value is the input's value itself (a pass-through), held once and counted once.
        var sharesInput: UInt64 = 0

        /// Bytes part `i` holds beyond the input's.
        func heldBytes(_ i: Int) -> Int {
            parts[i].wireSize - (sharesInput & (1 << i) != 0 ? parts[i].value?.count ?? 0 : 0)
        }
    }

    private(set) var entries: [Int: Entry] = [:]
    private var nextToken = 1
    /// Parts waiting to be sent (again), and parts produced and not yet acknowledged.
    private(set) var waitingParts = 0
    private(set) var unacknowledgedParts = 0
    /// Input and output bytes held (the in-flight byte budget).
    private(set) var bytes = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    subscript(token: Int) -> Entry? { entries[token] }

    /// Takes `entry` in under a new token, counting its input and output bytes: the bytes held, so an output that
    /// is the input's own array is counted once.
    mutating func add(_ entry: Entry) -> Int {
        var entry = entry
        for i in entry.parts.indices where Self.sameStorage(entry.parts[i].value, entry.message.value) {
            entry.sharesInput |= 1 << i
        }
        entry.bytes = entry.message.wireSize + entry.parts.indices.reduce(0) { $0 + entry.heldBytes($1) }
        defer { nextToken += 1 }
        entries[nextToken] = entry
        bytes += entry.bytes
        return nextToken
    }

    /// Changes what does not move a count: deferred bits, parts, the rejection, the cut.
    mutating func update(_ token: Int, _ change: (inout Entry) -> Void) {
        guard entries[token] != nil else { return }
        change(&entries[token]!)
    }

    /// Defers the parts of `token` that wait for the others (`afterOthers`) or for a gate, registering them with
    /// `gates`; returns those whose gate was resolved before they were sent (a caller that broke the order): they
    /// are dropped, never published ahead of their page.
    mutating func deferParts(_ token: Int, gates: inout GateBook) -> [DeliveryEngine.Part] {
        guard let e = entries[token] else { return [] }
        var dropped: [DeliveryEngine.Part] = []
        for i in e.parts.indices where e.parts[i].afterOthers || e.parts[i].waitsFor != nil {
            if let g = e.parts[i].waitsFor, !gates.wait(g, token: token, part: i) {
                dropped.append(e.parts[i])
                continue
            }
            entries[token]!.deferred |= 1 << i
        }
        return dropped
    }

    /// The deferred parts of `token` no gate holds back: they are produced now.
    mutating func takeReady(_ token: Int) -> [Int] {
        guard let e = entries[token] else { return [] }
        let ready = e.parts.indices.filter { e.deferred & (1 << $0) != 0 && e.parts[$0].waitsFor == nil }
        for i in ready { entries[token]!.deferred &= ~(1 << i) }
        return ready
    }

    /// Part `i` of `token` was handed to the producer.
    mutating func produced(_ token: Int, _ i: Int) {
        entries[token]!.unacknowledged |= 1 << i
        unacknowledgedParts += 1
    }

    /// The producer reported on part `i` of `token`: it is no longer unacknowledged. Nil when it was not (a report
    /// for a part sent again, or for an entry gone).
    mutating func reported(_ token: Int, _ i: Int) -> Entry? {
        guard let e = entries[token], e.unacknowledged & (1 << i) != 0 else { return nil }
        entries[token]!.unacknowledged &= ~(1 << i)
        unacknowledgedParts -= 1
        return e
    }

    /// Part `i` of `token` waits to be sent again.
    mutating func markWaiting(_ token: Int, _ i: Int) {
        guard let e = entries[token], e.waiting & (1 << i) == 0 else { return }
        entries[token]!.waiting |= 1 << i
        waitingParts += 1
    }

    /// Takes the waiting parts of `token` to send them again.
    mutating func takeWaiting(_ token: Int) -> [Int] {
        guard let e = entries[token], e.waiting != 0 else { return [] }
        let parts = e.parts.indices.filter { e.waiting & (1 << $0) != 0 }
        entries[token]!.waiting = 0
        waitingParts -= parts.count
        return parts
    }

    /// Every unacknowledged part waits to be sent again (a new producer: the old one's reports are dropped).
    mutating func requeueUnacknowledged() {
        for token in entries.keys {
            let unacknowledged = entries[token]!.unacknowledged
            guard unacknowledged != 0 else { continue }
            entries[token]!.unacknowledged = 0
            unacknowledgedParts -= unacknowledged.nonzeroBitCount
            entries[token]!.waiting |= unacknowledged
            waitingParts += unacknowledged.nonzeroBitCount
        }
    }

    /// Part `i` of `token` is acknowledged: its value is no longer needed (nothing acknowledged is sent again), so
    /// its bytes leave the budget while the message waits for its other parts.
    mutating func release(_ token: Int, _ i: Int) {
        guard let part = entries[token]?.parts[i], part.value != nil else { return }
        let before = entries[token]!.heldBytes(i)
        entries[token]!.parts[i].value = nil
        let freed = before - entries[token]!.heldBytes(i)
        entries[token]!.bytes -= freed
        bytes -= freed
    }

    /// Takes `token` out, with its bytes.
    mutating func remove(_ token: Int) -> Entry? {
        guard let e = entries.removeValue(forKey: token) else { return nil }
        bytes -= e.bytes
        return e
    }

    /// Whether `a` and `b` are one array's storage (not equal contents: the same bytes in memory).
    private static func sameStorage(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool {
        guard let a, let b, a.count == b.count, !a.isEmpty else { return false }
        return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }

    /// The topics of the records produced and not yet acknowledged, sorted.
    var unacknowledgedTopics: [String] {
        var topics = Set<String>()
        for e in entries.values where e.unacknowledged != 0 {
            for i in e.parts.indices where e.unacknowledged & (1 << i) != 0 { topics.insert(e.parts[i].topic) }
        }
        return topics.sorted()
    }
}
