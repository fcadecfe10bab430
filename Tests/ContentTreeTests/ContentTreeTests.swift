import ContentTree
import LayoutJSON
import Testing

private func tree(_ text: String) throws -> ContentTree {
    ContentTree(document: try JSONReader().read(Array(text.utf8)))
}

@Suite struct ContentTreeTests {
    @Test func findsItemsUnderAnyKeyParentFirstInDocumentOrder() throws {
        let t = try tree(
            #"""
            {"contents":[{"SecondaryContent":[{"@type":"Breadcrumbs"},{"contents":[{"navigation":[{"@type":"RefinementMenu"},{"@type":"PriceSlider"}],"@type":"GuidedNavigation"}],"@type":"ContentSlot-Secondary"}],"@type":"MobilePage"}],"@type":"PageSlot"}
            """#)
        #expect(
            t.items.map(\.type) == [
                "PageSlot", "MobilePage", "Breadcrumbs", "ContentSlot-Secondary", "GuidedNavigation", "RefinementMenu",
                "PriceSlider",
            ])
        #expect(
            t.items.map(\.path) == [
                "$", "contents[0]", "contents[0].SecondaryContent[0]", "contents[0].SecondaryContent[1]",
                "contents[0].SecondaryContent[1].contents[0]",
                "contents[0].SecondaryContent[1].contents[0].navigation[0]",
                "contents[0].SecondaryContent[1].contents[0].navigation[1]",
            ])
        #expect(t.items.map(\.parent) == [nil, 0, 1, 1, 3, 4, 4])
        #expect(t.items.map(\.depth) == [0, 1, 2, 2, 3, 4, 4])
        #expect(t.children(of: 1) == [2, 3])
        #expect(t.items.map(\.childCount) == [1, 2, 0, 1, 2, 0, 0])
        #expect(t.children(of: 4) == [5, 6])
        #expect(t.children(of: 6).isEmpty)
        #expect(t.rootIsContentItem)
        #expect(t.indexOfContentItem(atPath: "contents[0].SecondaryContent[1].contents[0].navigation[1]") == 6)
        #expect(t.indexOfContentItem(atPath: "nope") == nil)
        #expect(t.diagnostics.isEmpty)
    }

    @Test func singleObjectChildrenAndNonItemRoot() throws {
        let t = try tree(
            #"{"resultsList":{"@type":"ResultsList","records":[]},"navigation":{"navigation":[{"@type":"RefinementMenu"}]}}"#
        )
        #expect(t.items.map(\.path) == ["resultsList", "navigation.navigation[0]"])
        #expect(t.items.allSatisfy { $0.parent == nil })
        #expect(!t.rootIsContentItem)
    }

    @Test func modelObjectsAreNotContentItems() throws {
        let t = try tree(
            #"{"@type":"ResultsList","records":[{"@class":"com.endeca.infront.cartridge.model.Record","attributes":{}}]}"#
        )
        #expect(t.items.count == 1)
        let both = try tree(#"{"@type":"A","x":{"@class":"c","@type":"B"}}"#)
        #expect(both.items.map(\.type) == ["A"])
        #expect(both.diagnostics.map(\.code) == ["type-and-class"])
        #expect(both.diagnostics.first?.path == "x")
        // Either key order, escaped spellings, and items inside a model object (which is walked, not an item).
        let later = try tree(
            #"{"@type":"A","x":{"@type":"B","k":1,"@class":"c"},"m":{"@class":"c","inner":[{"@type":"C"}]}}"#)
        #expect(later.items.map(\.type) == ["A", "C"])
        #expect(later.items.map(\.path) == ["$", "m.inner[0]"])
        #expect(later.diagnostics.map(\.path) == ["x"])
        let escaped = try tree(
            #"{"\u0040type":"E","x":{"@class":"c","\u0040type":"F"},"y":{"\u0040class":"c","@type":"G"}}"#)
        #expect(escaped.items.map(\.type) == ["E"])
        #expect(escaped.diagnostics.map(\.path) == ["x", "y"])
    }

    @Test func nonStringTypeIsADiagnosticNotACrash() throws {
        let t = try tree(#"{"@type":"Page","a":[{"@type":7},{"@type":null},{"@type":["x"]},{"@type":"Ok"}]}"#)
        #expect(t.items.map(\.type) == ["Page", "Ok"])
        #expect(t.diagnostics.map(\.code) == ["invalid-type", "invalid-type", "invalid-type"])
        #expect(t.diagnostics.map(\.path) == ["a[0]", "a[1]", "a[2]"])
        #expect(t.diagnostics[0].message.contains("number"))
    }

    @Test func typeMayComeAfterChildrenAndKeysNeedQuoting() throws {
        let t = try tree(
            #"{"contents":[{"my slot":[{"@type":"X"}],"ecr:inner":{"@type":"Y"},"@type":"P"}],"@type":"Root"}"#)
        #expect(
            t.items.map(\.path) == ["$", "contents[0]", #"contents[0]["my slot"][0]"#, #"contents[0]["ecr:inner"]"#])
        #expect(t.items[2].parent == 1)
    }

    @Test func itemsNestedInDataStillBelongToTheNearestItem() throws {
        let t = try tree(#"{"@type":"A","records":[{"@class":"r","extra":{"@type":"Spotlight"}}]}"#)
        #expect(t.items.map(\.path) == ["$", "records[0].extra"])
        #expect(t.items[1].parent == 0)
    }

    @Test func twoHundredThousandFlatItems() throws {
        let body = Array(repeating: #"{"@type":"T"}"#, count: 200_000).joined(separator: ",")
        let t = try tree(#"{"@type":"Page","contents":["# + body + "]}")
        #expect(t.items.count == 200_001)
        #expect(t.items[0].childCount == 200_000)
        #expect(t.children(of: 0).count == 200_000)
        #expect(t.items.last?.path == "contents[199999]")
    }
}
