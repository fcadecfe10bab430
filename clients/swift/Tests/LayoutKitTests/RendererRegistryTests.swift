import LayoutKit
import Testing

/// Views come from the renderer's factory or the fallback; placeholders and views by kind; selection by event.
@Suite struct RendererRegistryTests {
    static let section = Layout.Section(
        id: "s", type: "ResultsList",
        header: Layout.SupplementaryView(renderer: "Header", model: .string("Olive oil")),
        footer: Layout.SupplementaryView(renderer: "Unknown", model: .null),
        placeholder: Layout.Placeholder(kind: "loading", renderer: nil, message: nil))

    @Test func rowsViewsAndPlaceholdersFindTheirFactories() {
        var registry = RendererRegistry<String>(fallback: { row, _ in "fallback:\(row.id)" })
        registry.register("ProductCell") { row, section in "product:\(row.id)@\(section.id)" }
        registry.register("header", renderer: "Header") { view, _ in "header:\(view.model.string ?? "")" }
        registry.register(placeholder: "LoadingPlaceholder") { p, _ in "spinner:\(p.kind)" }
        let s = Self.section
        #expect(registry.view(for: Layout.Row(id: "p1", renderer: "ProductCell"), in: s) == "product:p1@s")
        #expect(registry.view(for: Layout.Row(id: "p2", renderer: "Unregistered"), in: s) == "fallback:p2")
        #expect(registry.view(for: Layout.Row(id: "p3", renderer: nil), in: s) == "fallback:p3")
        #expect(registry.view("header", of: s) == "header:Olive oil")
        #expect(registry.view("footer", of: s) == nil)
        registry.registerFallbackView { v, _ in "any:\(v.renderer ?? "-")" }
        #expect(registry.view("footer", of: s) == "any:Unknown")
        #expect(registry.view("badge", of: s) == nil)
        // A placeholder without a renderer uses the built-in name for its kind.
        #expect(registry.placeholderView(of: s) == "spinner:loading")
        #expect(registry.isRegistered("ProductCell") && !registry.isRegistered("Unregistered"))
    }

    @Test func selectionGoesToTheEventHandlerThenTheAction() {
        var registry = RendererRegistry<String>(fallback: { _, _ in "" })
        var calls: [String] = []
        let action = Layout.Action(kind: "navigate", target: "/p/1", siteRootPath: nil, label: nil)
        let withEvent = Layout.Row(
            id: "a", renderer: nil, action: action,
            events: ["onSelect": Layout.Event(handler: "addToCart", action: action, fields: ["sku": .string("1")])])
        let withAction = Layout.Row(id: "b", renderer: nil, action: action)
        #expect(registry.select(withEvent, in: Self.section) == .none)
        registry.handle("addToCart") { event, row, _ in
            calls.append("cart \(row.id) \(event.fields?["sku"]?.string ?? "")")
        }
        registry.handleActions { action, row, _ in calls.append("go \(row.id) \(action.target)") }
        #expect(registry.select(withEvent, in: Self.section) == .event(handler: "addToCart"))
        #expect(registry.select(withAction, in: Self.section) == .action(action))
        #expect(calls == ["cart a 1", "go b /p/1"])
    }
}
