extension Layout {
    /// One collection-view section: one content item of the response (or one row group of it).
    public struct Section: Sendable, Hashable, Codable, Identifiable {
        /// Stable across responses: matched by id, so a renderer keeps the section's views.
        public var id: String
        /// Where the item sits in this response (positional: it changes when siblings are added above it).
        public var path: String
        public var index: Int
        /// The content item's `@type`.
        public var type: String
        public var adaptor: String
        public var visible: Bool
        public var parent: String?
        public var group: Group?
        public var attributes: [String: JSONValue]?
        public var header: SupplementaryView?
        public var footer: SupplementaryView?
        /// Other supplementary views by kind.
        public var supplementary: [String: SupplementaryView]?
        public var placeholder: Placeholder?
        public var rows: [Row]

        public init(
            id: String, path: String = "$", index: Int = 0, type: String, adaptor: String = "Generic",
            visible: Bool = true, parent: String? = nil, group: Group? = nil, attributes: [String: JSONValue]? = nil,
            header: SupplementaryView? = nil, footer: SupplementaryView? = nil,
            supplementary: [String: SupplementaryView]? = nil, placeholder: Placeholder? = nil, rows: [Row] = []
        ) {
            self.id = id
            self.path = path
            self.index = index
            self.type = type
            self.adaptor = adaptor
            self.visible = visible
            self.parent = parent
            self.group = group
            self.attributes = attributes
            self.header = header
            self.footer = footer
            self.supplementary = supplementary
            self.placeholder = placeholder
            self.rows = rows
        }

        /// The view of `kind` (`header`, `footer`, or another the config names), if the section has one.
        public func view(_ kind: String) -> SupplementaryView? {
            switch kind {
            case SupplementaryView.header: header
            case SupplementaryView.footer: footer
            default: supplementary?[kind]
            }
        }
    }

    /// A grouped section's group: the field grouped by and this group's value.
    public struct Group: Sendable, Hashable, Codable {
        public var by: String
        public var value: JSONValue

        public init(by: String, value: JSONValue) {
            self.by = by
            self.value = value
        }
    }

    /// A header, footer or other supplementary view: the renderer the config chose and its model.
    public struct SupplementaryView: Sendable, Hashable, Codable {
        public static let header = "header"
        public static let footer = "footer"

        /// Nil when no mapping resolved (the record's diagnostics say why).
        public var renderer: String?
        public var model: JSONValue

        public init(renderer: String? = nil, model: JSONValue) {
            self.renderer = renderer
            self.model = model
        }
    }

    /// What a section shows instead of rows: `loading`, `empty`, `noResults`, `error`.
    public struct Placeholder: Sendable, Hashable, Codable {
        public var kind: String
        public var renderer: String?
        public var message: String?

        public init(kind: String, renderer: String? = nil, message: String? = nil) {
            self.kind = kind
            self.renderer = renderer
            self.message = message
        }
    }

    /// One cell: its id (stable across responses), the renderer that draws it and the model it draws.
    public struct Row: Sendable, Hashable, Codable, Identifiable {
        public var id: String
        /// Nil when no mapping resolved (the record's diagnostics say why).
        public var renderer: String?
        /// What the lower levels of the row's renderer chain give, ending with the config's default renderer: an app
        /// without a view for `renderer` draws the first of these it has (`RendererRegistry` does). Nil: none.
        public var fallbacks: [String]?
        public var model: JSONValue
        public var action: Action?
        /// Named events (`onSelect`, ...) the config declares for the row.
        public var events: [String: Event]?

        public init(
            id: String, renderer: String?, fallbacks: [String]? = nil, model: JSONValue = .object([:]),
            action: Action? = nil, events: [String: Event]? = nil
        ) {
            self.id = id
            self.renderer = renderer
            self.fallbacks = fallbacks
            self.model = model
            self.action = action
            self.events = events
        }
    }

    /// What happens on an event: the handler to call, the row's action when the config passes it, named fields.
    public struct Event: Sendable, Hashable, Codable {
        public var handler: String?
        public var action: Action?
        public var fields: [String: JSONValue]?

        public init(handler: String? = nil, action: Action? = nil, fields: [String: JSONValue]? = nil) {
            self.handler = handler
            self.action = action
            self.fields = fields
        }
    }
}
