import Adaptors
import LayoutCompiler
import LayoutJSON
import TestSupport
import Testing

private let page = Array(
    #"""
    {"contents":[{"SecondaryContent":[{"@type":"Breadcrumbs","refinementCrumbs":[{"@class":"com.endeca.infront.cartridge.model.RefinementBreadcrumb","label":"Oil","removeAction":{"contentPath":"/browse","navigationState":"/_/N-0","siteRootPath":"/pages"}}]},{"contents":[{"navigation":[{"@type":"RefinementMenu","displayName":"Brand","refinements":[{"@class":"com.endeca.infront.cartridge.model.Refinement","label":"A","count":4,"properties":{"DGraph.Spec":"a"},"navigationState":"/_/N-1","contentPath":"/browse"},{"@class":"com.endeca.infront.cartridge.model.Refinement","label":"B","count":2,"navigationState":"/_/N-2","contentPath":"/browse"}]},{"@type":"PriceSlider","name":"Price"}],"@type":"GuidedNavigation"}],"@type":"ContentSlot-Secondary"}],"@type":"MobilePage"}],"@type":"PageSlot","endeca:contentPath":"/browse","endeca:siteRootPath":"/pages","name":"Slot"}
    """#.utf8)

private let yaml = """
    defaultRenderer: Cell
    renderers:
      - { renderer: RefinementCell, types: Refinement }
      - { renderer: CrumbCell, types: RefinementBreadcrumb }
      - { renderer: SliderCell, types: PriceSlider }
    supplementary:
      - { kind: header, types: RefinementMenu, field: displayName, renderer: MenuHeader }
    """

@Suite struct FlatteningTests {
    @Test func oneSectionPerContentItemParentFirst() throws {
        let (r, compiled) = try compileChecked(try compiler(yaml), page)
        #expect(r.count("sections") == 7)
        let types = (0..<7).map { r.text("sections[\($0)].type") }
        #expect(
            types == [
                "PageSlot", "MobilePage", "Breadcrumbs", "ContentSlot-Secondary", "GuidedNavigation", "RefinementMenu",
                "PriceSlider",
            ])
        #expect((0..<7).map { r.number("sections[\($0)].index") } == [0, 1, 2, 3, 4, 5, 6])
        // Without editor identities, ids are the parent's id, the type and [name]; the tree path is kept beside them.
        #expect(
            r.text("sections[5].id")
                == "PageSlot[Slot]/MobilePage/ContentSlot-Secondary/GuidedNavigation/RefinementMenu")
        #expect(r.text("sections[5].path") == "contents[0].SecondaryContent[1].contents[0].navigation[0]")
        #expect(r.text("sections[5].parent") == r.text("sections[4].id"))
        #expect(r.text("sections[4].path") == "contents[0].SecondaryContent[1].contents[0]")
        #expect(r.at("sections[0].parent") == nil)
        #expect((0..<7).map { r.flag("sections[\($0)].visible") } == [false, false, true, false, false, true, true])
        #expect((0..<7).map { r.count("sections[\($0)].rows") } == [0, 0, 1, 0, 0, 2, 1])
        #expect(
            (0..<7).map { r.text("sections[\($0)].adaptor") } == [
                "Container", "Generic", "Breadcrumbs", "Container", "Container", "RefinementMenu", "PriceSlider",
            ])
        #expect(compiled.record.sectionIndex(forPath: "contents[0].SecondaryContent[1].contents[0].navigation[1]") == 6)
        #expect(r.text("page.type") == "PageSlot")
        #expect(r.text("page.contentPath") == "/browse")
        #expect(r.number("version") == 2)
        #expect(r.count("diagnostics") == 0)
    }

    @Test func rowsIdsRenderersActionsAndHeaders() throws {
        let (r, _) = try compileChecked(try compiler(yaml), page)
        #expect(r.text("sections[5].rows[0].id") == "a")  // DGraph.Spec
        #expect(r.text("sections[5].rows[1].id") == "B")  // label
        #expect(r.text("sections[5].rows[0].renderer") == "RefinementCell")
        #expect(r.text("sections[5].rows[0].action.kind") == "navigate")
        #expect(r.text("sections[5].rows[0].action.target") == "/browse/_/N-1")
        #expect(r.text("sections[2].rows[0].action.kind") == "remove")
        #expect(r.text("sections[2].rows[0].action.target") == "/browse/_/N-0")
        #expect(r.text("sections[2].rows[0].action.siteRootPath") == "/pages")
        #expect(r.text("sections[2].rows[0].id") == "refinement:Oil")
        #expect(r.text("sections[5].header.renderer") == "MenuHeader")
        #expect(r.json("sections[5].header.model") == #""Brand""#)
        #expect(r.text("sections[6].rows[0].renderer") == "SliderCell")
        #expect(r.text("sections[6].rows[0].id") == "0")
    }

    @Test func modelsAreCopiedByteForByte() throws {
        let (r, compiled) = try compileChecked(try compiler(yaml), page)
        let input = try JSONReader().read(page)
        let refinement = try #require(
            FieldPath(parsing: "contents[0].SecondaryContent[1].contents[0].navigation[0].refinements[1]").resolve(
                in: input, from: 0))
        #expect(Array(r.raw(r.at("sections[5].rows[1].model")!)) == Array(input.raw(refinement)))
        let slider = try #require(
            FieldPath(parsing: "contents[0].SecondaryContent[1].contents[0].navigation[1]").resolve(in: input, from: 0))
        #expect(Array(r.raw(r.at("sections[6].rows[0].model")!)) == Array(input.raw(slider)))
        #expect(compiled.record.sections[5].rows[1].model == refinement)
    }

    @Test func omitContainersDropsThemAndRenumbers() throws {
        let (r, _) = try compileChecked(try compiler(yaml + "\noptions: { omitContainers: true }\n"), page)
        #expect(r.count("sections") == 3)
        #expect((0..<3).map { r.text("sections[\($0)].type") } == ["Breadcrumbs", "RefinementMenu", "PriceSlider"])
        #expect((0..<3).map { r.number("sections[\($0)].index") } == [0, 1, 2])
    }

    @Test func customAdaptorsThroughTheSwiftExtensionPoint() throws {
        var registry = try compiler(yaml).registry
        registry.register(TwoRowAdaptor(), for: "PriceSlider")
        let c = LayoutCompiler(config: try compiler(yaml).config, registry: registry)
        let (r, _) = try compileChecked(c, page)
        #expect(r.text("sections[6].adaptor") == "TwoRows")
        #expect(r.count("sections[6].rows") == 2)
        #expect(r.text("sections[6].rows[1].id") == "second")
    }

    /// Ids come from a string (escaped or not) or a number, after the reader's prefix; an empty string is skipped.
    @Test func rowIdsFromStringsEscapesAndNumbers() throws {
        let response = #"""
            {"@type":"Breadcrumbs",
             "refinementCrumbs":[{"label":"O\u0069l \"x\""},{"properties":{"DGraph.Spec":""},"label":"Plain"}],
             "searchCrumbs":[{"terms":42},{"terms":-1.5e3}],
             "rangeFilterCrumbs":[{"propertyName":"price"}]}
            """#
        let (r, compiled) = try compileChecked(try compiler("defaultRenderer: Cell\n"), Array(response.utf8))
        #expect(
            (0..<5).map { r.text("sections[0].rows[\($0)].id") }
                == ["refinement:Oil \"x\"", "refinement:Plain", "search:42", "search:-1.5e3", "range:price"])
        #expect(
            compiled.record.sections[0].rows.map(\.id) == [
                "refinement:Oil \"x\"", "refinement:Plain", "search:42", "search:-1.5e3", "range:price",
            ])
    }
}
