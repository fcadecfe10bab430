import LayoutJSON
import Testing

@Suite struct FieldPathTests {
    let doc = try! JSONReader().read(
        Array(
            #"{"attributes":{"product.brand":["ACME","X"]},"detailsAction":{"recordState":"/r"},"@class":"c","a-b":1}"#
                .utf8))

    @Test func resolvesNamesQuotedNamesAndIndexes() throws {
        let brand = try FieldPath(parsing: #"attributes["product.brand"][1]"#)
        #expect(brand.resolve(in: doc, from: 0).flatMap(doc.string) == "X")
        #expect(
            try FieldPath(parsing: "detailsAction.recordState").resolve(in: doc, from: 0).flatMap(doc.string) == "/r")
        #expect(try FieldPath(parsing: #"["@class"]"#).resolve(in: doc, from: 0).flatMap(doc.string) == "c")
        #expect(try FieldPath(parsing: "a-b").resolve(in: doc, from: 0).flatMap(doc.int) == 1)
        #expect(try FieldPath(parsing: #"attributes["product.brand"][5]"#).resolve(in: doc, from: 0) == nil)
        #expect(try FieldPath(parsing: "detailsAction.missing").resolve(in: doc, from: 0) == nil)
        #expect(brand.description == #"attributes["product.brand"][1]"#)
    }

    @Test(arguments: ["", "a.", "a[", "a[x]", "a[\"x", "a..b", "1a", "a]"])
    func rejectsBadPaths(text: String) {
        #expect(throws: FieldPath.ParseError.self) { try FieldPath(parsing: text) }
    }
}
