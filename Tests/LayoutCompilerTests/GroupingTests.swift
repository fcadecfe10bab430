import LayoutCompiler
import LayoutJSON
import Testing

private func records(_ brands: [String?]) -> [UInt8] {
    let rows = brands.enumerated().map { n, b in
        let attrs = b.map { #""product.brand":["\#($0)"],"# } ?? ""
        return #"{"@class":"x.Record","attributes":{\#(attrs)"product.repositoryId":["p\#(n)"]}}"#
    }
    return Array(#"{"@type":"Grid","name":"Products","records":[\#(rows.joined(separator: ","))]}"#.utf8)
}

private func yaml(order: String) -> String {
    """
    defaultRenderer: Cell
    adaptors:
      Grid: { adaptor: ResultsList, groupBy: 'attributes["product.brand"][0]', groupOrder: \(order) }
    supplementary:
      - { kind: header, types: Grid, field: name, renderer: BrandHeader }
    """
}

@Suite struct GroupingTests {
    @Test func groupsByFirstAppearance() throws {
        let (r, _) = try compileChecked(
            try compiler(yaml(order: "firstAppearance")), records(["b", "a", "b", nil, "c", "a"]))
        #expect(r.count("sections") == 4)
        #expect(
            (0..<4).map { r.text("sections[\($0)].id") } == ["$#group=b", "$#group=a", "$#group=null", "$#group=c"])
        #expect((0..<4).map { r.json("sections[\($0)].group.value") } == [#""b""#, #""a""#, "null", #""c""#])
        #expect(r.text("sections[0].group.by") == #"attributes["product.brand"][0]"#)
        #expect((0..<4).map { r.count("sections[\($0)].rows") } == [2, 2, 1, 1])
        #expect(r.text("sections[0].rows[1].id") == "p2")
        #expect(r.text("sections[0].header.renderer") == "BrandHeader")
        #expect(r.json("sections[0].header.model") == #""b""#)
        #expect((0..<4).map { r.number("sections[\($0)].index") } == [0, 1, 2, 3])
    }

    @Test func groupsByValueWithNullLast() throws {
        let (r, _) = try compileChecked(try compiler(yaml(order: "value")), records(["b", nil, "a", "c", "a"]))
        #expect((0..<4).map { r.json("sections[\($0)].group.value") } == [#""a""#, #""b""#, #""c""#, "null"])
        #expect(r.count("sections[0].rows") == 2)
    }
}
