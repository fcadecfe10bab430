import Foundation
import LayoutCompiler
import LayoutJSON
import LayoutRecord
import TestSupport
import Testing

@Suite struct SampleTests {
    @Test(arguments: Fixtures.samples)
    func everySampleCompilesToASchemaValidRecord(sample: String) throws {
        let (r, _) = try compileChecked(try compiler(file: "config/default.yaml"), Fixtures.bytes(sample))
        #expect((r.count("sections") ?? 0) > 3)
    }

    @Test func theSearchPageUsesEveryBuiltInAdaptor() throws {
        let (r, _) = try compileChecked(
            try compiler(file: "config/default.yaml"), Fixtures.bytes("samples/search-page.json"))
        let adaptors = Set((0..<(r.count("sections") ?? 0)).compactMap { r.text("sections[\($0)].adaptor") })
        #expect(
            adaptors == [
                "Container", "SearchBox", "RefinementMenu", "PriceSlider", "RangeFilter", "Breadcrumbs",
                "SearchAdjustments", "ResultsList",
            ])
        #expect(r.count("diagnostics") == 0)
        // Paging: 37 records, 12 per page, first page → next offset 9 (lastRecNum), no previous.
        let list = try #require(
            (0..<(r.count("sections") ?? 0)).first { r.text("sections[\($0)].adaptor") == "ResultsList" })
        #expect(r.number("sections[\(list)].attributes.paging.pageCount") == 4)
        #expect(r.text("sections[\(list)].attributes.paging.next.target")?.contains("No=9&Nrpp=12") == true)
        #expect(r.at("sections[\(list)].attributes.paging.previous").map { r.kind($0) } == .null)
        #expect(r.count("sections[\(list)].attributes.sortOptions") == 2)
        // The sale condition picks SaleProductCell for every third product.
        let renderers = (0..<9).compactMap { r.text("sections[\(list)].rows[\($0)].renderer") }
        #expect(
            renderers == [
                "SaleProductCell", "ProductCell", "ProductCell", "SaleProductCell", "ProductCell", "ProductCell",
                "SaleProductCell", "ProductCell", "ProductCell",
            ])
        #expect(r.text("sections[\(list)].rows[0].action.kind") == "record")
    }

    /// `compile` writes sections as it makes them; `record` lays the page out again as values. Both must say the same.
    @Test(arguments: Fixtures.samples)
    func compiledBytesAreTheRecordWritten(sample: String) throws {
        let compiled = try compiler(file: "config/default.yaml").compile(
            Fixtures.bytes(sample), source: RecordSource(file: sample)
        ).get()
        let record = compiled.record
        #expect(LayoutRecordWriter().write(record) == compiled.bytes)
        #expect(record.diagnostics.map(\.code) == compiled.diagnostics.map(\.code))
        #expect(record.source?.file == sample)
        #expect(
            compiled.contentTypes(atPaths: record.sections.map(\.path) + ["no.such[0].path"])
                == record.sections.map(\.type) + [nil])
    }

    /// The outline the compiler notes while writing is the one the record's bytes read into: change sets made from
    /// it are the ones made from the bytes.
    @Test(arguments: Fixtures.samples)
    func theWrittenOutlineIsTheOneReadBack(sample: String) throws {
        let compiled = try compiler(file: "config/default.yaml").compile(
            Fixtures.bytes(sample), source: RecordSource(topic: "t", partition: 1, offset: 42)
        ).get()
        #expect(compiled.outline == (try RecordOutline(bytes: compiled.bytes)))
        #expect(compiled.outline.sourceOffset == 42)
    }

    @Test func theWrittenOutlineOfEveryCorpusPageIsTheOneReadBack() throws {
        let files = Fixtures.corpusFiles
        try #require(!files.isEmpty || Fixtures.corpusDirectory == nil)
        for file in files {
            let config = file.hasSuffix("supermami-1.json") ? "config/examples/supermami.yaml" : "config/default.yaml"
            guard case .success(let compiled) = try compiler(file: config).compile(Fixtures.bytes(absolute: file))
            else { continue }
            #expect(compiled.outline == (try RecordOutline(bytes: compiled.bytes)), "\(file)")
        }
    }

    @Test func searchPageIsAbout45KB() {
        let size = Fixtures.bytes("samples/search-page.json").count
        #expect(size > 40_000 && size < 50_000)
    }
}

@Suite(.enabled(if: Fixtures.corpusDirectory != nil, "../shared/corpus is absent"))
struct CorpusTests {
    @Test func everyRealResponseCompilesWithTheDefaultConfig() throws {
        let files = Fixtures.corpusFiles
        #expect(!files.isEmpty)
        for file in files {
            let (r, _) = try compileChecked(try compiler(file: "config/default.yaml"), Fixtures.bytes(absolute: file))
            #expect((r.count("sections") ?? 0) > 0, "\(file)")
        }
    }

    @Test func supermamiCompilesWithItsExampleConfig() throws {
        let file = try #require(Fixtures.corpusFiles.first { $0.hasSuffix("supermami-1.json") })
        let (r, compiled) = try compileChecked(
            try compiler(file: "config/examples/supermami.yaml"), Fixtures.bytes(absolute: file))
        let sections = compiled.record.sections
        // 48 content items; the product grid is split into 9 brand groups (48 - 1 + 9).
        #expect(sections.count == 56)
        #expect(sections.filter { $0.type == "NeticelS_CategoryShortPaginated" }.map(\.rows.count) == [20, 20])
        #expect(sections.filter { $0.type == "NeticelS_CategoryGridProd" }.reduce(0) { $0 + $1.rows.count } == 20)
        #expect(sections.filter { $0.type == "NeticelS_CategoryFilterMenu" }.reduce(0) { $0 + $1.rows.count } == 31)
        let price = try #require(sections.first { $0.type == "NeticelS_CategoryFilterPrice" })
        #expect(price.placeholder?.kind == .error)
        #expect(price.placeholder?.message == "property: dimensionId should not be null or an emtpy string")
        // Every row resolved to exactly one renderer; the only diagnostic is the cartridge's own error.
        #expect(sections.allSatisfy { $0.rows.allSatisfy { $0.renderer != nil } })
        #expect(compiled.record.diagnostics.map(\.code) == ["cartridge-error"])
        #expect(r.text("page.type") == "PageSlot")
        #expect(r.text("page.contentPath") == "/categoria")
        // Records keep their ids from product.repositoryId and open their detail page.
        let list = try #require(sections.first { $0.type == "NeticelS_CategoryShortPaginated" })
        #expect(
            list.rows.allSatisfy {
                $0.action?.kind == .record
                    && $0.action?.targetText(in: compiled.record.document).hasPrefix("/categoria/") == true
            })
        #expect(Set(list.rows.map(\.id)).count == 20)
    }
}

@Suite struct PagingTemplateTests {
    /// Both placeholder spellings are filled, wherever they sit; other `%` escapes and braces are kept as they are.
    @Test func placeholdersAreFilledAndEverythingElseIsKept() throws {
        let template =
            #"/c/_/N-1?Nf=a%7CGTEQ+1&No=%7Boffset%7D&Nrpp={recordsPerPage}&x={offset}{offset}%7B&q=%20{other}%"#
        let response = #"""
            {"@type":"ResultsList","totalNumRecs":100,"recsPerPage":10,"firstRecNum":21,"lastRecNum":30,"records":[],
             "pagingActionTemplate":{"@class":"com.endeca.infront.cartridge.model.NavigationAction","contentPath":"","navigationState":"\#(template)"}}
            """#
        let (r, _) = try compileChecked(try compiler("version: 1\n"), Array(response.utf8))
        #expect(r.text("sections[0].attributes.paging.template") == template)
        #expect(
            r.text("sections[0].attributes.paging.next.target")
                == "/c/_/N-1?Nf=a%7CGTEQ+1&No=30&Nrpp=10&x=3030%7B&q=%20{other}%")
        #expect(
            r.text("sections[0].attributes.paging.previous.target")
                == "/c/_/N-1?Nf=a%7CGTEQ+1&No=10&Nrpp=10&x=1010%7B&q=%20{other}%")
    }

    /// Filled-in actions keep the template's kind, site root and label, in an action's field order.
    @Test func filledActionsKeepTheTemplatesOtherFields() throws {
        let response = #"""
            {"@type":"ResultsList","totalNumRecs":30,"recsPerPage":10,"firstRecNum":11,"lastRecNum":20,"records":[],
             "pagingActionTemplate":{"contentPath":"/c","navigationState":"?No={offset}","siteRootPath":"/p\u00e9","label":"Page \"n\""}}
            """#
        let (r, _) = try compileChecked(try compiler("version: 1\n"), Array(response.utf8))
        #expect(
            r.json("sections[0].attributes.paging.next")
                == #"{"kind":"navigate","target":"/c?No=20","siteRootPath":"/p\u00e9","label":"Page \"n\""}"#)
        #expect(r.text("sections[0].attributes.paging.previous.siteRootPath") == "/pé")
    }
}

@Suite struct LinkActionTests {
    /// A link's target is its path, then `?` and its query string when that is not empty; escapes are copied as they are.
    @Test func linkTargetsJoinPathAndQuery() throws {
        let response = #"""
            {"@type":"LinkList","links":[
             {"name":"a","link":{"linkType":"internal","path":"/x","queryString":"q=\"1\"&b=\u00e9"}},
             {"name":"b","link":{"linkType":"internal","path":"/y","queryString":""}},
             {"name":"c","link":{"linkType":"internal","path":"/z"}},
             {"name":"d","link":{"path":"/w","queryString":"k=v"}}]}
            """#
        let config = "defaultRenderer: Cell\nadaptors:\n  LinkList: { adaptor: Generic, rows: \"field:links\" }\n"
        let (r, compiled) = try compileChecked(try compiler(config), Array(response.utf8))
        #expect((0..<4).map { r.text("sections[0].rows[\($0)].action.kind") } == ["link", "link", "link", "link"])
        #expect(r.json("sections[0].rows[0].action.target") == #""/x?q=\"1\"&b=\u00e9""#)
        #expect((1..<4).map { r.text("sections[0].rows[\($0)].action.target") } == ["/y", "/z", "/w?k=v"])
        let record = compiled.record
        #expect(record.sections[0].rows[0].action?.targetText(in: record.document) == "/x?q=\"1\"&b=é")
        #expect(record.sections[0].rows[1].action?.targetText(in: record.document) == "/y")
    }
}
