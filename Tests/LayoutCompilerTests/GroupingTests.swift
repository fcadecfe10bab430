import Adaptors
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
            (0..<4).map { r.text("sections[\($0)].id") } == [
                "Grid[Products]#group=b", "Grid[Products]#group=a", "Grid[Products]#group=null",
                "Grid[Products]#group=c",
            ])
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

    /// Date-time values sort by the instant they name, across offsets: 10:00+05:00 is 05:00Z, before 06:00Z.
    @Test func dateTimesSortChronologicallyAcrossOffsets() throws {
        let values = ["2024-01-01T06:00:00Z", "2024-01-01T10:00:00+05:00", "2023-12-31T23:30:00-07:00", "later"]
        let (r, _) = try compileChecked(try compiler(yaml(order: "value")), records(values))
        #expect(
            (0..<4).map { r.text("sections[\($0)].group.value") } == [
                "2024-01-01T10:00:00+05:00", "2024-01-01T06:00:00Z", "2023-12-31T23:30:00-07:00", "later",
            ])
    }
}

/// A grid whose rows' `v` fields hold `values` (JSON texts).
private func grid(_ values: [String], extra: String = "") -> [UInt8] {
    let rows = values.enumerated().map { n, v in #"{"id":"r\#(n)","v":\#(v)}"# }
    return Array(#"{"@type":"Grid","name":"G",\#(extra)"items":[\#(rows.joined(separator: ","))]}"#.utf8)
}

@Suite struct TypedGroupingTests {
    let config = """
        defaultRenderer: Cell
        adaptors:
          Grid: { rows: 'field:items', groupBy: v, groupOrder: value }
        supplementary:
          - { kind: header, types: Grid, field: name, renderer: GroupHeader }
        """

    /// Strings, numbers and booleans stay apart and keep their JSON type; a string that reads like another
    /// group's value shows its quotes in the section id.
    @Test func valuesOfDifferentTypesAreDifferentGroups() throws {
        let (r, _) = try compileChecked(
            try compiler(config), grid(["1", #""1""#, "1.0", "true", #""true""#, #""x""#, "1", "null", #""null""#]))
        #expect(r.count("sections") == 7)
        // Numbers first (1 and 1.0 are one number), then strings and other values by text, null last.
        #expect(
            (0..<7).map { r.json("sections[\($0)].group.value") } == [
                "1", #""1""#, #""null""#, #""true""#, "true", #""x""#, "null",
            ])
        #expect(r.count("sections[0].rows") == 3)
        let ids = (0..<7).map { r.text("sections[\($0)].id") ?? "" }
        #expect(Set(ids).count == 7, "\(ids)")
        #expect(ids.contains("Grid[G]#group=1") && ids.contains(#"Grid[G]#group="1""#))
    }

    /// Grouping by a to-one relationship: rows group by the related object's identity, and the object is the
    /// group's value and its header's model.
    @Test func groupsByARelatedObject() throws {
        let natura = #"{"id":"b1","name":"Natura","logo":"/n.png"}"#
        let pisi = #"{"id":"b2","name":"Pisi","logo":"/p.png"}"#
        let c = try compiler(
            """
            defaultRenderer: Cell
            adaptors:
              Grid: { rows: 'field:items', groupBy: v }
            supplementary:
              - { kind: header, types: Grid, field: name, renderer: BrandHeader }
            """)
        let (r, _) = try compileChecked(c, grid([natura, pisi, natura, #"{"name":"No id"}"#]))
        #expect(r.count("sections") == 3)
        #expect(r.json("sections[0].group.value") == natura && r.json("sections[0].header.model") == natura)
        #expect(r.text("sections[0].id") == "Grid[G]#group=b1" && r.count("sections[0].rows") == 2)
        #expect(r.json("sections[1].header.model") == pisi)
        #expect(r.json("sections[2].group.value") == #"{"name":"No id"}"#)
        // The identity field is configurable.
        let byName = try compiler(
            "defaultRenderer: Cell\nadaptors: { Grid: { rows: 'field:items', groupBy: v, groupIdentity: name } }")
        let (n, _) = try compileChecked(byName, grid([natura, pisi]))
        #expect(n.text("sections[0].id") == "Grid[G]#group=Natura")
    }

    /// A grouped list's own attributes and footer appear once: attributes on the first group, footer on the last.
    @Test func listLevelAttributesAppearOnce() throws {
        let c = try compiler(
            """
            defaultRenderer: Cell
            adaptors:
              Grid: { adaptor: ResultsList, groupBy: 'attributes["product.brand"][0]' }
            supplementary:
              - { kind: footer, types: Grid, field: totalNumRecs, renderer: CountFooter }
            """)
        let page = Array(
            #"{"@type":"Grid","totalNumRecs":3,"records":[{"attributes":{"product.brand":["a"]}},{"attributes":{"product.brand":["b"]}},{"attributes":{"product.brand":["a"]}}]}"#
                .utf8)
        let (r, _) = try compileChecked(c, page)
        #expect(r.count("sections") == 2)
        #expect(r.number("sections[0].attributes.totalNumRecs") == 3 && r.at("sections[1].attributes") == nil)
        #expect(r.at("sections[0].footer") == nil && r.text("sections[1].footer.renderer") == "CountFooter")
    }

    /// `groupType` declares how values are read: the same values group differently under each type.
    @Test(
        arguments: [
            ("string", [#""1""#, #""1.0""#, #""2""#, #""true""#, "null"], [2, 1, 1, 2, 1], 1),
            ("number", ["1", "2", "null"], [3, 1, 3], 3),
            ("boolean", ["true", "null"], [2, 5], 5),
        ] as [(String, [String], [Int], Int)])
    func declaredTypes(type: String, values: [String], counts: [Int], mismatched: Int) throws {
        let yaml = config.replacingOccurrences(of: "groupOrder: value", with: "groupOrder: value, groupType: \(type)")
        // 1, "1", 1.0, "2", true, "true", {"o":1}
        let (r, compiled) = try compileChecked(
            try compiler(yaml), grid(["1", #""1""#, "1.0", #""2""#, "true", #""true""#, #"{"o":1}"#]))
        #expect((0..<values.count).map { r.json("sections[\($0)].group.value") } == values)
        #expect((0..<counts.count).map { r.count("sections[\($0)].rows") } == counts)
        #expect(r.count("sections") == values.count)
        let warning = compiled.diagnostics.first { $0.code == "group-type-mismatch" }
        #expect(warning?.message.hasPrefix("\(mismatched) row") == true, "\(compiled.diagnostics)")
        #expect(warning?.severity == .warning)
    }

    @Test func arraysGroupByTheirJSON() throws {
        let (r, _) = try compileChecked(try compiler(config), grid([#"["a","b"]"#, #"["a"]"#, #"["a","b"]"#]))
        #expect(r.count("sections") == 2)
        // Ordered by their JSON text: `["a",` before `["a"]`.
        #expect(r.json("sections[0].group.value") == #"["a","b"]"#)
        #expect(r.count("sections[0].rows") == 2)
        #expect(r.text("sections[0].id") == #"Grid[G]#group=["a","b"]"#)
        #expect(r.json("sections[1].group.value") == #"["a"]"#)
    }

    @Test func declaredDateTimesGroupByInstant() throws {
        let yaml = config.replacingOccurrences(of: "groupOrder: value", with: "groupOrder: value, groupType: datetime")
        let (r, compiled) = try compileChecked(
            try compiler(yaml),
            grid([
                #""2024-01-01T10:00:00+05:00""#, #""2024-01-01T06:00:00Z""#, #""2024-01-01T05:00:00Z""#,
                #""2024-01-01""#,
            ]))
        // 10:00+05:00 is 05:00Z: one group, labelled by its first row, ordered before 06:00Z; the date alone is
        // not a date-time.
        #expect(r.count("sections") == 3)
        #expect(r.json("sections[0].group.value") == #""2024-01-01T10:00:00+05:00""#)
        #expect(r.count("sections[0].rows") == 2)
        #expect(r.json("sections[1].group.value") == #""2024-01-01T06:00:00Z""#)
        #expect(r.json("sections[2].group.value") == "null")
        #expect(compiled.diagnostics.map { $0.code } == ["group-type-mismatch"])
        #expect(
            compiled.diagnostics.first?.message
                == "1 row's v is not a date-time (groupType datetime); it is in the null group")
    }
}
