import LayoutJSON

/// The levels of the event chain worked out for one row class in one kind of section, kept while rows share them.
public struct EventChain: Sendable {
    var valid = false
    /// The `@class` string node the levels were worked out for; -1 for rows without one.
    var classNode = -1
    var sectionType = ""
    var adaptor = ""
    /// Per event (in `EventResolver.events` order): the mapped levels in chain order, each a type and its candidates.
    var levels: [[(type: String, candidates: [Int])]] = []

    public init() {}
}

/// How one event of a row was resolved.
public enum EventResolution: Sendable, Equatable {
    /// Exactly one mapping's condition held at the first level where any did: `EventResolver.mappings[mapping]`.
    case chosen(mapping: Int)
    /// More than one held at `type`: the row gets no such event (an `ambiguous` diagnostic says which).
    case ambiguous(type: String, mappings: [Int])
}

/// Finds each row's events along the renderers' chain: `@class` short name, full class name, section type, adaptor
/// name, then the mappings without `types` (for every row). At the first level where some mapping's condition holds,
/// exactly one must hold.
public final class EventResolver: Sendable {
    public let mappings: [EventMapping]
    /// The event names the config declares, in first-use order.
    public let events: [String]
    /// Per type: per event, the candidate mappings (empty when the type maps nothing for that event).
    private let byType: [String: [[Int]]]
    /// Per event: the mappings without `types`.
    private let everyRow: [[Int]]
    static let everyRowLevel = "*"

    public init(mappings: [EventMapping]) {
        self.mappings = mappings
        var events: [String] = []
        for m in mappings where !events.contains(m.event) { events.append(m.event) }
        var byType: [String: [[Int]]] = [:]
        var everyRow = [[Int]](repeating: [], count: events.count)
        for (n, m) in mappings.enumerated() {
            let e = events.firstIndex(of: m.event)!
            if m.types.isEmpty { everyRow[e].append(n) }
            for type in Set(m.types) {
                byType[type, default: [[Int]](repeating: [], count: events.count)][e].append(n)
            }
        }
        self.events = events
        self.byType = byType
        self.everyRow = everyRow
    }

    /// Whether the config declares no events (rows then carry none, at no cost).
    public var isEmpty: Bool { mappings.isEmpty }

    /// Resolves every declared event for the row in `context`, calling `body` with the event's index in `events` and
    /// its resolution (events no mapping matches are left out). `chain` keeps the levels between rows.
    public func resolve(
        _ context: ConditionContext, adaptor: String, chain: inout EventChain,
        _ body: (Int, EventResolution) -> Void
    ) {
        let doc = context.document
        let classNode = RendererResolver.classNode(of: context)
        if !chain.valid || chain.sectionType != context.sectionType || chain.adaptor != adaptor
            || !RendererResolver.sameClass(classNode, chain.classNode, in: doc)
        {
            chain = levels(classNode, in: doc, sectionType: context.sectionType, adaptor: adaptor)
        }
        for e in events.indices {
            for level in chain.levels[e] {
                var first = -1
                var more: [Int] = []
                for n in level.candidates where mappings[n].condition?.evaluate(context) ?? true {
                    if first < 0 { first = n } else { more.append(n) }
                }
                if first < 0 { continue }
                body(e, more.isEmpty ? .chosen(mapping: first) : .ambiguous(type: level.type, mappings: [first] + more))
                break
            }
        }
    }

    /// The chain's mapped levels for rows of class `classNode` in sections of `sectionType` made by `adaptor`.
    private func levels(_ classNode: Int, in doc: JSONDocument, sectionType: String, adaptor: String) -> EventChain {
        var chain = EventChain()
        chain.valid = true
        chain.classNode = classNode
        chain.sectionType = sectionType
        chain.adaptor = adaptor
        var types = classNode >= 0 ? RendererResolver.classTypes(doc.decodedStringBytes(classNode)) : []
        for t in [sectionType, adaptor] where !types.contains(t) { types.append(t) }
        chain.levels = events.indices.map { e in
            var levels: [(type: String, candidates: [Int])] = []
            for t in types {
                if let candidates = byType[t]?[e], !candidates.isEmpty { levels.append((t, candidates)) }
            }
            if !everyRow[e].isEmpty { levels.append((Self.everyRowLevel, everyRow[e])) }
            return levels
        }
        return chain
    }
}
