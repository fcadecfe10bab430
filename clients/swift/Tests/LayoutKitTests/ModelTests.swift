import Foundation
import LayoutKit
import Testing

/// Every record and change set the server produced decodes into the typed models, and they say what the JSON says.
@Suite struct ModelTests {
    @Test(.enabled(if: Fixtures.shared != nil, "\(Fixtures.missing)"))
    func everyFixtureDecodes() throws {
        let fixtures = try #require(Fixtures.shared)
        for c in fixtures.cases {
            let target = try decode(Layout.Record.self, c.target)
            let raw = try #require(try JSONSerialization.jsonObject(with: Data(c.target)) as? [String: Any])
            let rawSections = try #require(raw["sections"] as? [[String: Any]])
            #expect(target.sections.map(\.id) == rawSections.map { $0["id"] as? String ?? "" }, "\(c.name)")
            #expect(
                target.sections.map { $0.rows.map(\.id) }
                    == rawSections.map { ($0["rows"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" } })
            let cs = try decode(Layout.ChangeSet.self, c.changeSet)
            #expect(cs.version == Layout.formatVersion && cs.kind == "layout-change-set")
            #expect(cs.target.hash == ContentHash(of: c.target).description)
            #expect((cs.base == nil) == (c.base == nil))
        }
    }

    @Test func aRowsModelKeepsEveryKindOfValue() throws {
        let row = try decode(
            Layout.Row.self,
            Array(
                #"{"id":"r1","renderer":null,"model":{"s":"é","i":9007199254740993,"d":1.5,"b":true,"n":null,"a":[1,"x"]},"events":{"onSelect":{"handler":"open","action":null,"fields":{"sku":"p1"}}}}"#
                    .utf8))
        #expect(row.renderer == nil)
        #expect(row.model["s"]?.string == "é")
        #expect(row.model["i"] == .number("9007199254740993"))
        #expect(row.model["d"]?.double == 1.5)
        #expect(row.model["b"] == .bool(true) && row.model["n"] == .null)
        #expect(row.model["a"] == .array([.number("1"), .string("x")]))
        #expect(row.events?["onSelect"]?.handler == "open" && row.events?["onSelect"]?.action == nil)
        #expect(row.events?["onSelect"]?.fields?["sku"]?.string == "p1")
    }
}
