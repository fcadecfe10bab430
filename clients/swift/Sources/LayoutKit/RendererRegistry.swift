/// Renderer name → view factory, in the style of DTCollectionViewManager's `register` and Instant Cocoa's fallback:
/// rows get the view registered for their renderer, or the fallback when none is (or the row has no renderer, which
/// the record's diagnostics explain); supplementary views and placeholders are registered by kind and renderer;
/// selection goes to the row's `onSelect` event handler, else to its action. Generic over `View`, so it is the same
/// on UIKit, AppKit, SwiftUI or a test.
public struct RendererRegistry<View> {
    public typealias RowFactory = (Layout.Row, Layout.Section) -> View
    public typealias ViewFactory = (Layout.SupplementaryView, Layout.Section) -> View
    public typealias PlaceholderFactory = (Layout.Placeholder, Layout.Section) -> View

    /// The renderers the compiler names for placeholders no mapping matched, by placeholder kind.
    public static var builtInPlaceholders: [String: String] {
        ["loading": "LoadingPlaceholder", "noResults": "NoResultsPlaceholder", "error": "ErrorPlaceholder"]
    }

    private var rows: [String: RowFactory] = [:]
    private var views: [String: [String: ViewFactory]] = [:]
    private var placeholders: [String: PlaceholderFactory] = [:]
    private var fallback: RowFactory
    private var fallbackView: ViewFactory?
    private var fallbackPlaceholder: PlaceholderFactory?
    private var handlers: [String: (Layout.Event, Layout.Row, Layout.Section) -> Void] = [:]
    private var actionHandler: ((Layout.Action, Layout.Row, Layout.Section) -> Void)?

    /// A registry whose rows without a registered renderer are drawn by `fallback`.
    public init(fallback: @escaping RowFactory) { self.fallback = fallback }

    /// Rows whose renderer is `renderer` are drawn by `make`.
    public mutating func register(_ renderer: String, _ make: @escaping RowFactory) { rows[renderer] = make }

    /// Supplementary views of `kind` (`header`, `footer`, ...) with `renderer` are drawn by `make`.
    public mutating func register(_ kind: String, renderer: String, _ make: @escaping ViewFactory) {
        views[kind, default: [:]][renderer] = make
    }

    /// Supplementary views no registration matches are drawn by `make` (without it, they are not drawn).
    public mutating func registerFallbackView(_ make: @escaping ViewFactory) { fallbackView = make }

    /// Placeholders with `renderer` (one of `builtInPlaceholders` or one the config names) are drawn by `make`.
    public mutating func register(placeholder renderer: String, _ make: @escaping PlaceholderFactory) {
        placeholders[renderer] = make
    }

    /// Placeholders no registration matches are drawn by `make` (without it, they are not drawn).
    public mutating func registerFallbackPlaceholder(_ make: @escaping PlaceholderFactory) {
        fallbackPlaceholder = make
    }

    /// Events whose `handler` is `name` call `body`.
    public mutating func handle(_ name: String, _ body: @escaping (Layout.Event, Layout.Row, Layout.Section) -> Void) {
        handlers[name] = body
    }

    /// Selected rows without an `onSelect` event but with an action call `body`.
    public mutating func handleActions(_ body: @escaping (Layout.Action, Layout.Row, Layout.Section) -> Void) {
        actionHandler = body
    }

    /// Whether a renderer has a factory of its own (false: the fallback draws its rows).
    public func isRegistered(_ renderer: String) -> Bool { rows[renderer] != nil }

    /// The renderer `row` is drawn with here: its own if registered, else the first of its `fallbacks` that is (a
    /// renderer added after this app was released), else nil (the registry's fallback draws it).
    public func renderer(for row: Layout.Row) -> String? {
        if let r = row.renderer, rows[r] != nil { return r }
        guard row.renderer != nil else { return nil }  // unresolved: no chain to fall back along
        return row.fallbacks?.first { rows[$0] != nil }
    }

    /// The view for `row` of `section`: by `renderer(for:)`, else the registry's fallback.
    public func view(for row: Layout.Row, in section: Layout.Section) -> View {
        (renderer(for: row).flatMap { rows[$0] } ?? fallback)(row, section)
    }

    /// The `kind` view of `section` (header, footer, ...), if it has one and something draws it.
    public func view(_ kind: String, of section: Layout.Section) -> View? {
        guard let v = section.view(kind) else { return nil }
        let make = v.renderer.flatMap { views[kind]?[$0] } ?? fallbackView
        return make?(v, section)
    }

    /// The view for `section`'s placeholder, if it has one and something draws it. A placeholder without a
    /// renderer uses the built-in name for its kind.
    public func placeholderView(of section: Layout.Section) -> View? {
        guard let p = section.placeholder else { return nil }
        let name = p.renderer ?? Self.builtInPlaceholders[p.kind]
        return (name.flatMap { placeholders[$0] } ?? fallbackPlaceholder)?(p, section)
    }

    /// What selecting a row did.
    public enum Selection: Sendable, Equatable {
        /// The `onSelect` event's handler was called.
        case event(handler: String)
        /// The action handler was called with the row's action.
        case action(Layout.Action)
        /// Nothing handles the row's selection.
        case none
    }

    /// Routes the selection of `row`: its `onSelect` event to the handler registered under the event's `handler`
    /// name, else its action to the action handler.
    @discardableResult
    public func select(_ row: Layout.Row, in section: Layout.Section) -> Selection {
        if let event = row.events?["onSelect"], let name = event.handler, let body = handlers[name] {
            body(event, row, section)
            return .event(handler: name)
        }
        if let action = row.action, let actionHandler {
            actionHandler(action, row, section)
            return .action(action)
        }
        return .none
    }
}
