extension Layout {
    /// A layout record: one compiled page, ready to draw (see schemas/layout-record.schema.json).
    public struct Record: Sendable, Hashable, Codable {
        public var version: Int
        /// Where the response came from (a file, or a topic, partition and offset); nil for the empty record.
        public var source: Source?
        public var page: Page?
        public var sections: [Section]
        public var diagnostics: [Diagnostic]

        public init(
            version: Int = Layout.formatVersion, source: Source? = nil, page: Page? = nil, sections: [Section] = [],
            diagnostics: [Diagnostic] = []
        ) {
            self.version = version
            self.source = source
            self.page = page
            self.sections = sections
            self.diagnostics = diagnostics
        }

        /// The record before a key's first layout: no page, no sections.
        public static let empty = Record()

        /// The sections a renderer draws (containers and empty sections without views are not visible).
        public var visibleSections: [Section] { sections.filter(\.visible) }
    }

    public struct Source: Sendable, Hashable, Codable {
        public var file: String?
        public var topic: String?
        public var partition: Int?
        public var offset: Int64?
        public var timestamp: Int64?
        public var key: String?
        /// The URL a navigation state was fetched from (a gateway with `--origin`).
        public var origin: String?

        public init(
            file: String? = nil, topic: String? = nil, partition: Int? = nil, offset: Int64? = nil,
            timestamp: Int64? = nil, key: String? = nil, origin: String? = nil
        ) {
            self.origin = origin
            self.file = file
            self.topic = topic
            self.partition = partition
            self.offset = offset
            self.timestamp = timestamp
            self.key = key
        }
    }

    /// Facts about the page as a whole.
    public struct Page: Sendable, Hashable, Codable {
        public var type: String?
        public var name: String?
        public var contentPath: String?
        public var siteRootPath: String?
        public var siteProductionURL: String?
        public var canonical: Action?

        public init(
            type: String? = nil, name: String? = nil, contentPath: String? = nil, siteRootPath: String? = nil,
            siteProductionURL: String? = nil, canonical: Action? = nil
        ) {
            self.type = type
            self.name = name
            self.contentPath = contentPath
            self.siteRootPath = siteRootPath
            self.siteProductionURL = siteProductionURL
            self.canonical = canonical
        }
    }

    /// Where selecting something leads.
    public struct Action: Sendable, Hashable, Codable {
        /// `navigate`, `record`, `remove` or `link`; `target` is relative to `siteRootPath`.
        public var kind: String
        public var target: String
        public var siteRootPath: String?
        public var label: String?

        public init(kind: String, target: String, siteRootPath: String? = nil, label: String? = nil) {
            self.kind = kind
            self.target = target
            self.siteRootPath = siteRootPath
            self.label = label
        }
    }

    /// A problem the compiler found, pointing at the response path it concerns.
    public struct Diagnostic: Sendable, Hashable, Codable {
        /// `error`, `warning` or `info`.
        public var severity: String
        public var code: String
        public var path: String
        public var message: String

        public init(severity: String, code: String, path: String, message: String) {
            self.severity = severity
            self.code = code
            self.path = path
            self.message = message
        }
    }
}
