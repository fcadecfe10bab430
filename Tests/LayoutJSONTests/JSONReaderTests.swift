import CJSONScan
import LayoutJSON
import TestSupport
import Testing

private func read(_ text: String, maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONDocument {
    try JSONReader(maxDepth: maxDepth).read(Array(text.utf8))
}

private func reason(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONSyntaxError? {
    do {
        _ = try JSONReader(maxDepth: maxDepth).read(bytes)
        return nil
    } catch {
        return error
    }
}

private func reason(_ text: String) -> JSONSyntaxError? { reason(Array(text.utf8)) }

@Suite struct JSONReaderTests {
    @Test func parsesEveryKindWithRawRanges() throws {
        let doc = try read(#" {"a":[1,-2.5e3,"x\"y",true,false,null],"b":{}} "#)
        #expect(doc.kind(0) == .object)
        let a = try #require(doc.value(0, "a"))
        #expect(doc.kind(a) == .array)
        let elements = Array(doc.elements(a))
        #expect(elements.count == 6)
        #expect(elements.map { doc.kind($0) } == [.number, .number, .string, .true, .false, .null])
        #expect(doc.int(elements[0]) == 1)
        #expect(doc.double(elements[1]) == -2500)
        #expect(doc.int(elements[1]) == nil)
        #expect(doc.string(elements[2]) == "x\"y")
        #expect(String(decoding: doc.raw(elements[2]), as: UTF8.self) == #""x\"y""#)
        let b = try #require(doc.value(0, "b"))
        #expect(String(decoding: doc.raw(b), as: UTF8.self) == "{}")
        #expect(doc.value(0, "missing") == nil)
        #expect(doc.nodes[0].next == UInt32(doc.nodes.count))
    }

    /// One pass finds several members: first occurrence wins, escaped keys match their decoded text, and a
    /// member found for one key is not reported for another.
    @Test func valuesFindsSeveralKeysInOnePass() throws {
        // Keys of 63 bytes and more share one length bucket: two of them that differ only in length.
        let long70 = String(repeating: "k", count: 70), long64 = String(repeating: "k", count: 64)
        let doc = try read(
            #"{"b":1,"a":2,"b":3,"\u0063":4,"":5,"ab":6,"long key name here":7,"\#(long64)":8,"\#(long70)":9}"#)
        let table = JSONKeyTable([
            "a", "b", "c", "", "missing", "long key name here", "ab", JSONKey(long70), JSONKey(long64),
        ])
        var found: [Int] = [99]
        doc.values(0, table, into: &found)
        #expect(found.count == 9)
        #expect(found.map { $0 < 0 ? nil : doc.int($0) } == [2, 1, 4, 5, nil, 7, 6, 9, 8])
        doc.values(try #require(doc.value(0, "a")), table, into: &found)
        #expect(found == Array(repeating: -1, count: 9), "a number has no members")
        doc.values(0, JSONKeyTable([]), into: &found)
        #expect(found.isEmpty)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let doc = try read(#"["\u00e9\n\t\/\\ \ud83d\ude00 Almacén"]"#)
        let s = try #require(doc.element(0, 0))
        #expect(doc.string(s) == "é\n\t/\\ 😀 Almacén")
        #expect(doc.stringEquals(s, Array("é\n\t/\\ 😀 Almacén".utf8)))
    }

    @Test func toleratesALeadingBOM() throws {
        let doc = try JSONReader().read([0xEF, 0xBB, 0xBF] + Array(#"{"k":1}"#.utf8))
        #expect(doc.value(0, "k").flatMap(doc.int) == 1)
    }

    @Test func integersThatOverflowAreNotInts() throws {
        let doc = try read("[9223372036854775807, 9223372036854775808, -9223372036854775808]")
        let e = Array(doc.elements(0))
        #expect(doc.int(e[0]) == Int.max)
        #expect(doc.int(e[1]) == nil)
        #expect(doc.int(e[2]) == Int.min)
    }

    @Test(arguments: [
        ("", JSONSyntaxError.Reason.emptyInput, 0),
        ("   \n\t ", .emptyInput, 6),
        ("{} x", .trailingCharacters, 3),
        ("[1] [2]", .trailingCharacters, 4),
        ("\"a\u{01}b\"", .controlCharacterInString(0x01), 2),
        (#""a\qb""#, .invalidEscape, 2),
        (#""\u12G4""#, .invalidEscape, 1),
        (#""\ud800""#, .loneSurrogate, 1),
        (#""\udc00""#, .loneSurrogate, 1),
        (#""\ud800\u0041""#, .loneSurrogate, 1),
        ("[NaN]", .nonFiniteNumber, 1),
        ("[Infinity]", .nonFiniteNumber, 1),
        ("[-Infinity]", .nonFiniteNumber, 1),
        ("[01]", .leadingZero, 1),
        ("[-01]", .leadingZero, 1),
        ("[1.]", .invalidNumber("expected a digit after '.'"), 3),
        ("[1e]", .invalidNumber("expected a digit in the exponent"), 3),
        ("[-]", .invalidNumber("expected a digit"), 2),
        ("[.5]", .unexpectedCharacter(UInt8(ascii: "."), expected: "a value"), 1),
        ("{\"a\":1 // c\n}", .unexpectedCharacter(UInt8(ascii: "/"), expected: "',' or '}'"), 7),
        ("// c\n{}", .comment, 0),
        ("[/* c */ 1]", .comment, 1),
        ("{'a':1}", .singleQuotedString, 1),
        ("['a']", .singleQuotedString, 1),
        ("[tru]", .invalidLiteral, 1),
        ("[nul", .invalidLiteral, 1),
        ("[1,]", .unexpectedCharacter(UInt8(ascii: "]"), expected: "a value (trailing comma?)"), 3),
        ("{\"a\":1,}", .unexpectedCharacter(UInt8(ascii: "}"), expected: "a key (trailing comma?)"), 7),
        ("{\"a\" 1}", .unexpectedCharacter(UInt8(ascii: "1"), expected: "':'"), 5),
        ("{1:2}", .unexpectedCharacter(UInt8(ascii: "1"), expected: "a string key"), 1),
        ("[1 2]", .unexpectedCharacter(UInt8(ascii: "2"), expected: "',' or ']'"), 3),
        ("\"abc", .unterminatedString, 0),
        ("{\"a\":[1,2", .unexpectedEnd(inside: "array"), 9),
        ("{\"a\":", .unexpectedEnd(inside: "object"), 5),
    ])
    func rejectsMalformedInput(text: String, expected: JSONSyntaxError.Reason, offset: Int) {
        let error = reason(text)
        #expect(error?.reason == expected, "input \(text.debugDescription)")
        #expect(error?.offset == offset, "input \(text.debugDescription)")
    }

    @Test(arguments: [
        [UInt8(0x22), 0xC3, 0x28, 0x22],  // bad continuation
        [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
        [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xFF, 0x22],  // never valid
        [0x22, 0x80, 0x22],  // lone continuation
        [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
    ])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(reason(bytes)?.reason == .invalidUTF8)
        #expect(reason(bytes)?.offset == 1)
    }

    @Test func rejectsNULBytesOutsideAndInsideStrings() {
        #expect(reason([0x5B, 0x00, 0x5D])?.reason == .unexpectedCharacter(0, expected: "a value"))
        #expect(reason([0x22, 0x61, 0x00, 0x22])?.reason == .controlCharacterInString(0))
    }

    @Test func deepNestingIsACleanErrorNotAStackOverflow() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 300_000)
        let error = reason(deep)
        #expect(error?.reason == .tooDeep(limit: 512))
        #expect(error?.offset == 512)
        let objects = Array(String(repeating: "{\"a\":", count: 300_000).utf8)
        #expect(reason(objects)?.reason == .tooDeep(limit: 512))
    }

    @Test func depthLimitIsConfigurableAndExact() throws {
        let ten = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(throws: Never.self) { try read(ten, maxDepth: 10) }
        #expect(reason(Array(ten.utf8), maxDepth: 9)?.reason == .tooDeep(limit: 9))
        // Unlimited-in-practice depth works iteratively too.
        let big = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let doc = try read(big, maxDepth: 100_000)
        #expect(doc.nodes.count == 100_000)
    }

    /// The tape is first written into room for one node per 8 input bytes; denser input is read again with room
    /// for the worst case. Both paths give the same tape and the same errors.
    @Test func denseInputOutgrowsTheFirstGuessAtTheTapeSize() throws {
        let count = 20_000
        let dense = "[" + Array(repeating: "0", count: count).joined(separator: ",") + "]"
        let doc = try read(dense)
        #expect(doc.nodes.count == count + 1)
        #expect(doc.nodes[0].count == UInt32(count))
        #expect(doc.nodes[0].next == UInt32(count + 1))
        #expect(doc.nodes[count].range == (dense.utf8.count - 2)..<(dense.utf8.count - 1))
        // The same values with room to spare (one node per 12 bytes) fit the first guess.
        let sparse = "[" + Array(repeating: "0          ", count: count).joined(separator: ",") + "]"
        #expect(try read(sparse).nodes.count == count + 1)
        // An error past the point where the first guess fills is found on the second reading, where it is.
        let broken = String(dense.dropLast()) + ",x]"
        #expect(reason(broken) == JSONSyntaxError(offset: broken.utf8.count - 2, reason: reason("[x]")!.reason))
        // One before it is found on the first.
        let early = "[0,x" + String(dense.dropFirst())
        #expect(reason(early)?.offset == 3)
        // A truncated dense document is an unexpected end, not a full tape.
        #expect(reason(String(dense.dropLast()))?.reason == .unexpectedEnd(inside: "array"))
    }

    @Test func inputSizeLimit() {
        #expect(reason(Array("[1,2]".utf8))?.reason == nil)
        #expect(throws: JSONSyntaxError(offset: 0, reason: .inputTooLarge(limit: 4))) {
            try JSONReader(maxBytes: 4).read(Array("[1,2]".utf8))
        }
    }

    @Test func errorDescriptionNamesReasonAndOffset() {
        let e = reason("[1,2,,]")
        #expect(e?.description == "unexpected ',', expected a value at byte 5")
    }

    @Test func longStringsAndManyValues() throws {
        let long = String(repeating: "abcdefgh", count: 1_000_000)  // 8 MB string
        let doc = try read("[\"" + long + "\"]")
        #expect(doc.string(1)?.utf8.count == 8_000_000)
        let many = "[" + Array(repeating: "1", count: 200_000).joined(separator: ",") + "]"
        #expect(try read(many).nodes[0].count == 200_000)
        let digits = "[" + String(repeating: "7", count: 5000) + "]"
        let d = try read(digits)
        #expect(d.int(1) == nil)
        #expect(d.double(1) == .infinity)
    }
}

/// The reader's string scan: the vector path and the portable one stop at the same byte for every input.
@Suite struct StringStopTests {
    @Test func vectorAndPortableScansAgree() {
        var rng = SeededRandom(seed: 7)
        let specials: [UInt8] = [0x22, 0x5C, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0x20, 0x41]
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 80)
            var bytes = (0..<length).map { _ in UInt8(0x21 + rng.next() % 0x5E) }  // printable ASCII
            for _ in 0..<Int(rng.next() % 3) where length > 0 {
                bytes[Int(rng.next() % UInt64(length))] = specials[Int(rng.next() % UInt64(specials.count))]
            }
            let from = length == 0 ? 0 : Int(rng.next() % UInt64(length + 1))
            bytes.withUnsafeBufferPointer { b in
                let base = b.baseAddress ?? UnsafePointer(bitPattern: 1)!
                let expected =
                    (from..<length).first { i in
                        let c = bytes[i]
                        return c == 0x22 || c == 0x5C || c < 0x20 || c >= 0x80
                    } ?? length
                #expect(cjsonscan_string_stop(base, from, length) == expected)
                #expect(cjsonscan_string_stop_portable(base, from, length) == expected)
            }
        }
    }
}
