import Foundation
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

    /// An app released before `VideoProductCell` existed draws the row with the first renderer of its chain it has.
    @Test func aRegistryWithoutTheRenderersFirstChoiceDrawsItsFallback() throws {
        var oldApp = RendererRegistry<String>(fallback: { row, _ in "generic:\(row.id)" })
        oldApp.register("ProductCell") { row, _ in "product:\(row.id)" }
        oldApp.register("GenericContentCell") { row, _ in "content:\(row.id)" }
        // As the server sends it: the record's row, read by the kit.
        let json =
            #"{"id":"v1","renderer":"VideoProductCell","#
            + #""fallbacks":["ProductCell","GenericContentCell"],"model":{}}"#
        let row = try JSONDecoder().decode(Layout.Row.self, from: Data(json.utf8))
        #expect(row.fallbacks == ["ProductCell", "GenericContentCell"])
        #expect(oldApp.renderer(for: row) == "ProductCell")
        #expect(oldApp.view(for: row, in: Self.section) == "product:v1")
        var older = RendererRegistry<String>(fallback: { row, _ in "generic:\(row.id)" })
        older.register("GenericContentCell") { row, _ in "content:\(row.id)" }
        #expect(older.view(for: row, in: Self.section) == "content:v1")
        // An app that has it draws it; nothing registered: the registry's fallback.
        var newApp = oldApp
        newApp.register("VideoProductCell") { row, _ in "video:\(row.id)" }
        #expect(newApp.view(for: row, in: Self.section) == "video:v1")
        #expect(RendererRegistry<String>(fallback: { _, _ in "none" }).view(for: row, in: Self.section) == "none")
        // A record without fallbacks (an older server) reads and draws as before.
        let plain = try JSONDecoder().decode(
            Layout.Row.self, from: Data(#"{"id":"p","renderer":"ProductCell","model":{}}"#.utf8))
        #expect(plain.fallbacks == nil && oldApp.view(for: plain, in: Self.section) == "product:p")
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
