import AttributeCarrying
import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutJSON
import LayoutKit
import LayoutRecord
import Mapping
import MappingFiles
import TestSupport
import Testing

/// Numbers a response (or a previous record) may carry where the adaptors do arithmetic: the 64-bit edges, one past
/// them, the largest and smallest doubles, negative zero, an underflowing exponent and a 5,000-digit integer.
let extremeNumbers = [
    "9223372036854775807", "-9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e308", "-1e308",
    "-0", "1e-400", "0", "-1", String(repeating: "9", count: 5_000),
]

/// Every number in every sample and corpus response replaced by each extreme, then compiled, diffed both ways,
/// applied, and carried over from and into the original: a trap in any of them kills the test process.
@Suite struct ExtremeNumberTests {
    let compilers: [(name: String, compiler: LayoutCompiler)] = {
        var out = [
            (
                "default",
                LayoutCompiler(
                    config: try! ConfigFile.load(
                        contents: Fixtures.bytes("config/default.yaml"), path: "config/default.yaml"
                    ).get())
            )
        ]
        if !Fixtures.corpusFiles.isEmpty {
            out.append(
                (
                    "supermami",
                    LayoutCompiler(
                        config: try! ConfigFile.load(
                            contents: Fixtures.bytes("config/examples/supermami.yaml"),
                            path: "config/examples/supermami.yaml"
                        ).get())
                ))
        }
        return out
    }()

    /// The byte ranges of the number nodes of `bytes`, with the key each one is the value of (nil in arrays).
    static func numbers(in bytes: [UInt8]) throws -> [(range: Range<Int>, key: String?)] {
        let doc = try JSONReader().read(bytes)
        var keyOf: [Int: String] = [:]
        for i in doc.nodes.indices where doc.kind(i) == .object {
            for (k, v) in doc.members(i) where doc.kind(v) == .number { keyOf[v] = doc.string(k) }
        }
        return doc.nodes.indices.filter { doc.kind($0) == .number }
            .map { (Int(doc.nodes[$0].start)..<Int(doc.nodes[$0].end), keyOf[$0]) }
    }

    /// Compiles `mutated`, diffs it against `original` both ways, applies both change sets and carries attributes
    /// both ways. Returns whether it compiled.
    @discardableResult
    static func exercise(_ mutated: [UInt8], against original: RecordOutline, with compiler: LayoutCompiler) throws
        -> Bool
    {
        guard case .success(let compiled) = compiler.compile(mutated) else { return false }
        let record = try RecordOutline(bytes: compiled.bytes)
        let differ = LayoutDiffer(), applier = ChangeSetApplier()
        let forward = differ.diff(from: original, to: record, key: "k")
        #expect(try applier.apply(forward.bytes, to: original.bytes) == record.bytes)
        let backward = differ.diff(from: record, to: original, key: "k")
        #expect(try applier.apply(backward.bytes, to: record.bytes) == original.bytes)
        _ = AttributeCarrier(registry: compiler.registry).carry(into: record, from: original)
        _ = AttributeCarrier(registry: compiler.registry).carry(into: original, from: record)
        _ = AttributeCarrier(registry: compiler.registry).carry(into: record, from: record)
        return true
    }

    /// Every number at every position of each sample, one at a time.
    @Test(arguments: Fixtures.samples)
    func everyNumberOfASampleAtEveryPosition(sample: String) throws {
        let bytes = Fixtures.bytes(sample)
        let (_, compiler) = compilers[0]
        let original = try RecordOutline(bytes: try compiler.compile(bytes).get().bytes)
        let positions = try Self.numbers(in: bytes)
        var compiled = 0
        for (range, _) in positions {
            for extreme in extremeNumbers {
                var mutated = bytes
                mutated.replaceSubrange(range, with: extreme.utf8)
                if try Self.exercise(mutated, against: original, with: compiler) { compiled += 1 }
            }
        }
        // Replacing a number by another never makes a valid response invalid.
        #expect(
            compiled == positions.count * extremeNumbers.count,
            "\(sample): \(compiled) of \(positions.count * extremeNumbers.count)")
    }

    /// For the corpus (large pages): every numeric field name, all its occurrences at once, with each config.
    @Test func everyNumericFieldOfTheCorpus() throws {
        let files = Fixtures.corpusFiles
        guard !files.isEmpty else { return }  // A clone without ../shared: nothing to read.
        for file in files {
            let bytes = Fixtures.bytes(absolute: file)
            let positions = try Self.numbers(in: bytes)
            let byKey = Dictionary(grouping: positions, by: { $0.key ?? "(array element)" })
            #expect(byKey.count > 3, "\(file): only \(byKey.count) numeric fields")
            for (_, compiler) in compilers {
                let original = try RecordOutline(bytes: try compiler.compile(bytes).get().bytes)
                for (_, occurrences) in byKey {
                    for extreme in extremeNumbers {
                        var mutated = bytes
                        // Back to front, so earlier ranges stay where they are.
                        for (range, _) in occurrences.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                            mutated.replaceSubrange(range, with: extreme.utf8)
                        }
                        #expect(try Self.exercise(mutated, against: original, with: compiler))
                    }
                }
            }
        }
    }

    /// The paging fields the results-list adaptor computes with, each at every extreme, in every combination of two,
    /// with a carried paging window from a previous record at every extreme too.
    @Test func pagingFieldsInEveryCombination() throws {
        let (_, compiler) = compilers[0]
        let fields = ["totalNumRecs", "recsPerPage", "firstRecNum", "lastRecNum"]
        let edges = [
            "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e308", "-0", "0", "1", "10",
        ]
        func page(_ values: [String: String]) -> [UInt8] {
            let numbers = fields.map { "\"\($0)\":\(values[$0] ?? "10")" }.joined(separator: ",")
            return Array(
                #"{"@type":"ResultsList",\#(numbers),"pagingActionTemplate":{"navigationState":"?No=%7Boffset%7D&Nrpp=%7BrecordsPerPage%7D"},"records":[{"@class":"x.R","attributes":{"product.repositoryId":["p1"]}}]}"#
                    .utf8)
        }
        var pages: [[UInt8]] = []
        for a in fields.indices {
            for b in fields.indices where b > a {
                for x in edges { for y in edges { pages.append(page([fields[a]: x, fields[b]: y])) } }
            }
        }
        let records = try pages.map { try RecordOutline(bytes: try compiler.compile($0).get().bytes) }
        // Each record against a sample of the others: paging windows carried from every kind of extreme.
        for (n, record) in records.enumerated() {
            for m in stride(from: n % 7, to: records.count, by: 7) {
                _ = AttributeCarrier(registry: compiler.registry).carry(into: record, from: records[m])
            }
        }
        #expect(records.count == 6 * edges.count * edges.count)
    }

    /// The 170-byte response that crash-looped the worker: a page ending at 2^63-1 compiles, with a diagnostic.
    @Test func theOverflowResponseCompilesWithADiagnostic() throws {
        let (_, compiler) = compilers[0]
        let text =
            #"{"@type":"ResultsList","recsPerPage":10,"totalNumRecs":9223372036854775807,"firstRecNum":1,"lastRecNum":10,"pagingActionTemplate":{"navigationState":"?No=%7Boffset%7D"},"records":[]}"#
        let compiled = try compiler.compile(Array(text.utf8)).get()
        let paging = String(decoding: compiled.bytes, as: UTF8.self)
        #expect(paging.contains(#""pageCount":922337203685477581"#))
        let negative = try compiler.compile(
            Array(text.replacingOccurrences(of: "9223372036854775807", with: "-5").utf8)
        ).get()
        #expect(
            negative.diagnostics.contains { $0.code == "paging-out-of-range" && $0.message.contains("totalNumRecs -5") }
        )
        let huge = try compiler.compile(
            Array(text.replacingOccurrences(of: "9223372036854775807", with: "18446744073709551616").utf8)
        ).get()
        #expect(
            huge.diagnostics.contains {
                $0.code == "paging-out-of-range" && $0.message.contains("totalNumRecs 18446744073709551616")
            })
        // A window ending at 2^63-1 followed by a page starting there: carried without overflow.
        let end = Array(
            text.replacingOccurrences(
                of: #""firstRecNum":1,"lastRecNum":10"#,
                with: #""firstRecNum":9223372036854775800,"lastRecNum":9223372036854775807"#
            ).utf8)
        let next = Array(
            text.replacingOccurrences(
                of: #""firstRecNum":1,"lastRecNum":10"#,
                with: #""firstRecNum":9223372036854775807,"lastRecNum":9223372036854775807"#
            ).utf8)
        let a = try RecordOutline(bytes: try compiler.compile(end).get().bytes)
        let b = try RecordOutline(bytes: try compiler.compile(next).get().bytes)
        _ = AttributeCarrier(registry: compiler.registry).carry(into: b, from: a)
        _ = AttributeCarrier(registry: compiler.registry).carry(into: a, from: b)
    }
}
