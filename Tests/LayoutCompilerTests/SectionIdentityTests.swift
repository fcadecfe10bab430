import LayoutCompiler
import LayoutJSON
import TestSupport
import Testing

/// Section ids come from the item (editor identity, then type and name), survive sibling edits, and stay unique.
@Suite struct SectionIdentityTests {
    static func audit(_ resource: String, _ inner: String?) -> String {
        #""endeca:auditInfo":{"ecr:resourcePath":"\#(resource)","ecr:innerPath":\#(inner.map { "\"\($0)\"" } ?? "null")}"#
    }

    @Test func editorIdentityFirstThenTypeAndName() throws {
        let page = """
            {"@type":"PageSlot",\(Self.audit("/pages/p", nil)),"contents":[
              {"@type":"Banner","name":"Sale",\(Self.audit("content/promo", "Main[0]"))},
              {"@type":"Banner","name":"Sale"},
              {"@type":"Banner","name":"Sale"},
              {"@type":"Banner"}]}
            """
        let (r, compiled) = try compileChecked(try compiler("defaultRenderer: Cell"), Array(page.utf8))
        #expect(
            (0..<5).map { r.text("sections[\($0)].id") } == [
                "/pages/p", "content/promo:Main[0]", "/pages/p/Banner[Sale]", "/pages/p/Banner[Sale]~2",
                "/pages/p/Banner",
            ])
        #expect((0..<5).map { r.text("sections[\($0)].path") } == ["$"] + (0..<4).map { "contents[\($0)]" })
        #expect((1..<5).allSatisfy { r.text("sections[\($0)].parent") == "/pages/p" })
        // An occurrence among same-named siblings is part of a name id, not a fault.
        #expect(!compiled.diagnostics.contains { $0.code == "duplicate-section-id" })
    }

    @Test func aRepeatedEditorIdentityIsDisambiguatedAndReported() throws {
        let item = #"{"@type":"Banner",\#(Self.audit("content/promo", "Main[0]"))}"#
        let page = #"{"@type":"PageSlot","contents":[\#(item),\#(item),\#(item)]}"#
        let (r, compiled) = try compileChecked(try compiler("defaultRenderer: Cell"), Array(page.utf8))
        #expect(
            (1..<4).map { r.text("sections[\($0)].id") } == [
                "content/promo:Main[0]", "content/promo:Main[0]~2", "content/promo:Main[0]~3",
            ])
        let found = compiled.diagnostics.filter { $0.code == "duplicate-section-id" }
        #expect(found.map(\.path) == ["contents[1]", "contents[2]"])
        #expect(found.allSatisfy { $0.severity == .warning && $0.message.contains("'content/promo:Main[0]'") })
    }

    /// An identity that reads like a suffixed one, escapes in the response, and row groups all keep ids unique.
    @Test func suffixedLookalikesEscapesAndGroupsStayUnique() throws {
        let a = #"{"@type":"Banner",\#(Self.audit("content/a", nil))}"#
        let lookalike = #"{"@type":"Banner",\#(Self.audit("content/a~2", nil))}"#
        let escaped = #"{"@type":"Banner",\#(Self.audit(#"content\/b\u00e9"#, #"M\"1\""#))}"#
        let page = #"{"@type":"PageSlot","contents":[\#(a),\#(a),\#(lookalike),\#(escaped),\#(a)]}"#
        let (r, compiled) = try compileChecked(try compiler("defaultRenderer: Cell"), Array(page.utf8))
        #expect(
            (1..<6).map { r.text("sections[\($0)].id") } == [
                "content/a", "content/a~2", "content/a~2~2", #"content/bé:M"1""#, "content/a~3",
            ])
        let found = compiled.diagnostics.filter { $0.code == "duplicate-section-id" }
        #expect(
            found.map(\.message) == [
                "Banner has the identity 'content/a' of an earlier item; its section id is 'content/a~2'",
                "Banner has the identity 'content/a~2' of an earlier item; its section id is 'content/a~2~2'",
                "Banner has the identity 'content/a' of an earlier item; its section id is 'content/a~3'",
            ])
        #expect(compiled.record.sections[4].id == #"content/bé:M"1""#)
        #expect(compiled.record.sections[2].parent == "PageSlot")
    }

    @Test func idsAreConfigurablePerType() throws {
        let c = try compiler(
            """
            defaultRenderer: Cell
            sectionIds:
              "*": name
              Banner: field:campaign.id
              Legacy: path
            """)
        let page = """
            {"@type":"PageSlot",\(Self.audit("/pages/p", nil)),"contents":[
              {"@type":"Banner","campaign":{"id":42},\(Self.audit("content/promo", "Main[0]"))},
              {"@type":"Banner","name":"No campaign"},
              {"@type":"Legacy"}]}
            """
        let (r, _) = try compileChecked(c, Array(page.utf8))
        #expect(
            (0..<4).map { r.text("sections[\($0)].id") } == [
                "PageSlot", "Banner:42", "PageSlot/Banner[No campaign]", "contents[2]",
            ])
        #expect(throws: (any Error).self) {
            try compiler("sectionIds: { Banner: whatever }")
        }
    }

    @Test func theTreePathFindsTheSectionOfAnItem() throws {
        let page = #"{"@type":"PageSlot","contents":[{"@type":"Banner","name":"A"},{"@type":"Banner","name":"B"}]}"#
        let compiled = try compiler("defaultRenderer: Cell").compile(Array(page.utf8)).get()
        #expect(compiled.record.sectionIndex(forPath: "contents[1]") == 2)
        #expect(compiled.record.sections[2].id == "PageSlot/Banner[B]")
    }

    /// Generic rows take their id from an `id` field first, so a reordered carousel is moves, not updates.
    @Test func genericRowsUseAnIdField() throws {
        let c = try compiler("defaultRenderer: Cell\nadaptors: { Carousel: { rows: 'field:slides' } }")
        let page = #"{"@type":"Carousel","slides":[{"id":"s1","label":"One"},{"id":7,"label":"Two"}]}"#
        let (r, _) = try compileChecked(c, Array(page.utf8))
        #expect(r.text("sections[0].rows[0].id") == "s1" && r.text("sections[0].rows[1].id") == "7")
    }
}
