import LayoutKit
import LayoutRecord
import Testing

/// A record read from anywhere (a topic, a file) is outlined once: its members, sections and rows as byte ranges;
/// what is not a layout record is refused, saying where.
@Suite struct RecordOutlineTests {
    static let record = Array(
        #"{"version":2,"source":{"topic":"in","partition":1,"offset":41},"page":{"title":"T"},"sections":[{"id":"s0","index":0,"path":"/a","type":"ResultsList","rows":[{"id":"r0","renderer":"Cell"},{"id":"r1","renderer":"Cell"}]},{"id":"s1","index":1,"rows":[]}],"diagnostics":[]}"#
            .utf8)

    static func text(_ o: RecordOutline, _ range: Range<Int>) -> String {
        String(decoding: o.raw(range), as: UTF8.self)
    }

    @Test func sectionsRowsAndMembersAreWhereTheBytesSay() throws {
        let o = try RecordOutline(bytes: Self.record)
        #expect(o.bytes == Self.record)
        #expect(o.members.count == 5 && o.sectionsMember == 3 && o.versionMember == 0 && o.pageMember == 2)
        #expect(o.sourceOffset == 41)
        #expect(o.sections.map { o.id(of: $0) } == ["s0", "s1"])
        #expect(o.type(of: o.sections[0]) == "ResultsList" && o.type(of: o.sections[1]) == nil)
        #expect(o.sections.map(\.rowCount) == [2, 0])
        #expect(o.rowIDs(of: o.sections[0]).map { Self.text(o, $0) } == [#""r0""#, #""r1""#])
        #expect(Self.text(o, o.row(1, of: o.sections[0]).node) == #"{"id":"r1","renderer":"Cell"}"#)
        #expect(o.sections[0].pathMember != nil && o.sections[1].pathMember == nil)
        #expect(o.read(member: o.pageMember!).flatMap { $0.value($0.root, "title").flatMap($0.string) } == "T")
        #expect(o.hash == ContentHash(of: Self.record))
    }

    @Test func theEmptyRecordHasNoSections() throws {
        let empty = RecordOutline.empty()
        #expect(empty.sections.isEmpty && empty.bytes == RecordOutline.emptyBytes)
        #expect(try RecordOutline(bytes: RecordOutline.emptyBytes) == empty)
    }

    /// A replacement's bytes go in place and every part after it moves: the outline equals the new bytes read anew.
    @Test func replacingMovesTheOutline() throws {
        let o = try RecordOutline(bytes: Self.record)
        let row = o.row(0, of: o.sections[0]).node
        let title = o.members[o.pageMember!].value
        let replaced = o.replacing([
            (title, Array(#"{"title":"A much longer title"}"#.utf8)),
            (row, Array(#"{"id":"r0","renderer":"VideoCell","extra":true}"#.utf8)),
        ])
        #expect(replaced == (try RecordOutline(bytes: replaced.bytes)))
        #expect(Self.text(replaced, replaced.rowIDs(of: replaced.sections[0])[1]) == #""r1""#)
        #expect(o.replacing([]) == o)
    }

    @Test func whatIsNotALayoutRecordIsRefusedSayingWhere() {
        let cases: [(String, String)] = [
            (#"{"version":2,"sections":"#, "invalid JSON at byte"),
            ("[]", "the root is not an object"),
            (#"{"version":2}"#, "no `sections` array"),
            (#"{"sections":[1]}"#, "sections[0] is not an object"),
            (#"{"sections":[{"index":0,"rows":[]}]}"#, "sections[0] has no string `id`"),
            (#"{"sections":[{"id":"a","rows":[]}]}"#, "sections[0] has no `index`"),
            (#"{"sections":[{"id":"a","index":0}]}"#, "sections[0] has no `rows` array"),
            (#"{"sections":[{"id":"a","index":0,"rows":[{"id":3}]}]}"#, "sections[0].rows[0] is not an object"),
        ]
        for (json, reason) in cases {
            do {
                _ = try RecordOutline(bytes: Array(json.utf8))
                Issue.record("\(json) was taken for a layout record")
            } catch {
                guard case .notALayoutRecord(let why) = error else {
                    Issue.record("\(json): \(error)")
                    continue
                }
                #expect(why.contains(reason), "\(json): \(why)")
            }
        }
    }
}
