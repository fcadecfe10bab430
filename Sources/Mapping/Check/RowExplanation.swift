import LayoutJSON

/// Why a row got its renderer: every level of its renderer chain (its model's `@class` short and full names, its
/// section's type, the section's adaptor), each mapping tried there with its condition, the values the condition
/// read and whether it held, then the default renderer; the winner and the runner-up (what the row would get
/// without the winning level). What `layout-worker explain` prints; `RowExplanation(_:adaptor:resolver:)` makes it the way
/// `resolveRow` decides, and a test holds the two to the same answer for every sample row.
public struct RowExplanation: Sendable {
    /// One mapping tried at a level.
    public struct Candidate: Sendable {
        public var renderer: String
        public var location: SourceLocation?
        /// The condition's text (nil: none, the mapping always holds).
        public var condition: String?
        public var holds: Bool
        /// Each field the condition reads, and its value in the model as JSON (nil: missing).
        public var readings: [(path: String, value: String?)]
    }

    /// One level of the chain.
    public struct Level: Sendable {
        public var type: String
        /// What the type is to the row: "@class short name", "@class", "section type", "adaptor".
        public var role: String
        public var candidates: [Candidate]
    }

    /// The model's `@class`, if it has one.
    public var modelClass: String?
    public var levels: [Level]
    public var defaultRenderer: String?
    /// What the row gets (the same as `resolveRow`).
    public var resolution: Resolution
    /// The renderer the row would get if its winning level had no mapping, the first that is not the winner (nil:
    /// none); for a resolved row, the first of its record's `fallbacks`.
    public var runnerUp: String?
}

extension RowExplanation {
    /// The explanation as `explain` and the preview show it: the model, the chain level by level (each mapping with
    /// its place in the config `origin`, its condition, the values read and the result), the winner, the runner-up.
    public func lines(origin: String) -> [String] {
        var lines = ["model: " + (modelClass.map { "@class \($0)" } ?? "no @class"), "chain:"]
        let place = { (l: SourceLocation?) in l.map { " (\(origin):\($0))" } ?? "" }
        for (n, level) in levels.enumerated() {
            lines.append("  \(n + 1). \(level.type) (\(level.role))" + (level.candidates.isEmpty ? ": no mapping" : ""))
            for c in level.candidates {
                let when = c.condition.map { " when '\($0)'" } ?? " (no condition)"
                let values = c.readings.map { "\($0.path) = \($0.value ?? "missing")" }.joined(separator: ", ")
                lines.append(
                    "     renderer \(c.renderer)\(place(c.location))\(when) → \(c.holds)"
                        + (values.isEmpty ? "" : " (\(values))"))
            }
        }
        lines.append("  \(levels.count + 1). defaultRenderer: \(defaultRenderer ?? "none")")
        switch resolution {
        case .resolved(let renderer, let type): lines.append("chosen: \(renderer), at \(type)")
        case .defaulted(let renderer): lines.append("chosen: \(renderer), the default renderer (no mapping held)")
        case .ambiguous(let type, let renderers):
            var seen = Set<String>()
            let names = renderers.filter { seen.insert($0).inserted }
            let hold = names.count == 2 ? "both hold" : "all hold"
            lines.append("ambiguous at \(type): \(names.joined(separator: ", ")) \(hold); the row is unresolved")
        case .unmapped: lines.append("unmapped: no mapping held and there is no defaultRenderer")
        }
        lines.append("runner-up: \(runnerUp ?? "none")")
        return lines
    }
}

extension RowExplanation {
    /// The chain `resolver.resolveRow` walks for the row in `context` of a section made by `adaptor`, every mapping
    /// tried and its outcome.
    public init(_ context: ConditionContext, adaptor: String, resolver: RendererResolver) {
        let (doc, config) = (context.document, resolver.config)
        let classNode = RendererResolver.classNode(of: context)
        let modelClass = classNode >= 0 ? doc.string(classNode) : nil
        var levels: [RowExplanation.Level] = []
        var seen: Set<String> = []
        let classTypes = classNode >= 0 ? RendererResolver.classTypes(doc.decodedStringBytes(classNode)) : []
        for (n, type) in classTypes.enumerated() where seen.insert(type).inserted {
            levels.append(
                Self.level(
                    type, role: classTypes.count > 1 && n == 0 ? "@class short name" : "@class", context, config))
        }
        let sectionRole = adaptor == context.sectionType ? "section type, and its adaptor" : "section type"
        for (type, role) in [(context.sectionType, sectionRole), (adaptor, "adaptor")]
        where seen.insert(type).inserted {
            levels.append(Self.level(type, role: role, context, config))
        }
        var outcomes = levels.map { level -> Resolution? in
            let matched = level.candidates.filter(\.holds).map(\.renderer)
            if matched.count == 1 { return .resolved(renderer: matched[0], type: level.type) }
            return matched.isEmpty ? nil : .ambiguous(type: level.type, renderers: matched)
        }
        outcomes.append(config.defaultRenderer.map { .defaulted(renderer: $0) })
        let decided = outcomes.indices.filter { outcomes[$0] != nil }
        let resolution = decided.first.flatMap { outcomes[$0] } ?? .unmapped(tried: levels.map(\.type))
        let runnerUp = decided.dropFirst().lazy.compactMap { outcomes[$0]?.renderer }
            .first { $0 != resolution.renderer }
        self.init(
            modelClass: modelClass, levels: levels, defaultRenderer: config.defaultRenderer, resolution: resolution,
            runnerUp: runnerUp)
    }

    /// The row mappings for `type`, each tried on the row.
    private static func level(_ type: String, role: String, _ context: ConditionContext, _ config: MappingConfig)
        -> RowExplanation.Level
    {
        let doc = context.document
        let candidates = config.renderers.filter { $0.types.contains(type) }.map { m in
            RowExplanation.Candidate(
                renderer: m.renderer, location: m.location, condition: m.condition?.source,
                holds: m.condition?.evaluate(context) ?? true,
                readings: (m.condition?.expression.fieldPaths ?? []).map { path in
                    (
                        path.description,
                        path.resolve(in: doc, from: context.model).map { node in
                            let raw = String(decoding: doc.raw(node), as: UTF8.self)
                            return raw.count > 80 ? raw.prefix(77) + "…" : raw
                        }
                    )
                })
        }
        return RowExplanation.Level(type: type, role: role, candidates: candidates)
    }
}
