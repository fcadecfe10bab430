import LayoutJSON
import Testing

@Suite struct JSONWriterTests {
    @Test func writesCompactJSONWithCommasAndEscapes() throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("a"); w.int(-42)
        w.key("b"); w.string("q\"uote\\ \n\u{01} é")
        w.key("c"); w.beginArray(); w.bool(true); w.null(); w.double(1.5); w.double(3); w.endArray()
        w.key("dynamic key"); w.raw(Array("{\"x\":[1]}".utf8))
        w.key("e"); w.beginObject(); w.endObject()
        w.endObject()
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == #"{"a":-42,"b":"q\"uote\\ \n\u0001 é","c":[true,null,1.5,3],"dynamic key":{"x":[1]},"e":{}}"#)
        let doc = try JSONReader().read(w.bytes)
        #expect(doc.value(0, "b").flatMap(doc.string) == "q\"uote\\ \n\u{01} é")
    }

    @Test func everyStringRoundTripsWhateverTheSpecialCharacterPosition() throws {
        let specials: [Character] = ["\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "€", "😀", "\u{A2}", "\u{DC}"]
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                for special in specials {
                    var text = String(repeating: "a", count: length)
                    if length > 0 {
                        let i = text.index(text.startIndex, offsetBy: position)
                        text.replaceSubrange(i...i, with: String(special))
                    }
                    var w = JSONWriter()
                    w.beginArray()
                    w.string(text)
                    w.endArray()
                    let doc = try JSONReader().read(w.bytes)
                    #expect(doc.string(1) == text, "\(text.debugDescription)")
                }
            }
        }
    }

    /// Short copies take a path of their own (no memmove): every length across its bounds, as keys, values and raw JSON.
    @Test func everyShortCopyLengthIsExact() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH")
        for length in 0...40 {
            let text = String(alphabet[0..<length])
            var w = JSONWriter(capacity: 16)
            w.beginObject()
            w.key(text: text)
            w.string(text)
            w.key("raw")
            w.raw(Array("\"\(text)\"".utf8))
            w.endObject()
            #expect(w.bytes == Array("{\"\(text)\":\"\(text)\",\"raw\":\"\(text)\"}".utf8), "length \(length)")
        }
    }

    @Test func intEdgeCases() {
        var w = JSONWriter()
        w.beginArray()
        for n in [0, 7, -1, Int.max, Int.min] { w.int(n) }
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == "[0,7,-1,\(Int.max),\(Int.min)]")
    }

    @Test func commasStayRightBeyondSixtyFourLevelsAndAcrossGrowth() throws {
        // Tiny capacity: the buffer grows many times; 100 levels: the comma state spills past its 64-bit stack.
        var w = JSONWriter(capacity: 1)
        var expected = ""
        for level in 0..<100 {
            w.beginArray(); w.int(level)
            expected += "[\(level)"
            if level % 2 == 0 { w.beginObject(); w.endObject(); expected += ",{}" }
            expected += ","
        }
        w.string("deep")
        expected += "\"deep\""
        for level in (1..<100).reversed() {
            w.endArray(); w.bool(level % 3 == 0)
            expected += "],\(level % 3 == 0)"
        }
        w.endArray()
        expected += "]"
        #expect(String(decoding: w.bytes, as: UTF8.self) == expected)
    }

    /// A string's body copied from a document keeps its escapes; text is escaped; a value is copied verbatim.
    @Test func stringsWrittenInPartsJoinEscapedAndRawText() throws {
        let doc = try JSONReader().read(Array(#"["a\"b",{"x":[1,"\u00e9"]}]"#.utf8))
        var w = JSONWriter()
        w.beginArray()
        w.beginString(); w.stringPart(bodyOf: 1, in: doc); w.stringPart("c\"\n"); w.endString()
        w.raw(2, of: doc)
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"["a\"bc\"\n",{"x":[1,"\u00e9"]}]"#)
    }

    @Test func prettyPrinterKeepsEveryValue() throws {
        let compact = Array(#"{"a":[1,{"b":"x"},[]],"c":{},"d":"\u00e9"}"#.utf8)
        let pretty = JSONPrettyPrinter.format(try JSONReader().read(compact))
        let text = String(decoding: pretty, as: UTF8.self)
        #expect(
            text
                == "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x\"\n    },\n    []\n  ],\n  \"c\": {},\n  \"d\": \"\\u00e9\"\n}\n"
        )
        let again = try JSONReader().read(pretty)
        #expect(again.value(0, "d").flatMap(again.string) == "é")
    }

    /// Writing into an array's own storage: within the capacity, past it (the writer moves to its own buffer),
    /// and with much room left (the result is copied to its size); all three give the same bytes.
    @Test(arguments: [1, 16, 40, 4_096, 1 << 20])
    func writesStraightIntoAnArray(capacity: Int) {
        func fill(_ w: inout JSONWriter) {
            w.beginArray()
            for n in 0..<200 { w.beginObject(); w.key("n"); w.int(n); w.key("s"); w.string("a\"b\(n)"); w.endObject() }
            w.endArray()
        }
        var reference = JSONWriter()
        fill(&reference)
        let out = JSONWriter.bytes(capacity: capacity) { fill(&$0) }
        #expect(out == reference.bytes)
        #expect(out.capacity - out.count <= out.count / 4 + 4096)
    }
}
