import Benchmark
import Foundation
import LayoutCompiler
import LayoutDiff
import LayoutJSON
import LayoutKit
import LayoutRecord
import Mapping

/// Diff time for the DifferenceKit shape (5,000 rows: 1,000 deleted, 1,000 inserted, 200 moved), the same shape ×10
/// (for the scaling ratio), and the real 397 KB page against itself with every tenth row's model changed.
let benchmarks: @Sendable () -> Void = {
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    for scale in [1, 10] {
        let (old, new) = Shape.differenceKit(rows: 5_000 * scale)
        let a = try! RecordOutline(bytes: old), b = try! RecordOutline(bytes: new)
        let name = "\(5_000 * scale)-rows"
        Benchmark("diff/\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(LayoutDiffer().diff(from: a, to: b, key: "k").bytes.count) }
        }
        let changeSet = LayoutDiffer().diff(from: a, to: b, key: "k").bytes
        Benchmark("apply/\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! ChangeSetApplier().apply(changeSet, to: old).count) }
        }
        Benchmark("outline/\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! RecordOutline(bytes: new).sections.count) }
        }
    }

    let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/assembler/supermami-1.json")
        .path
    if let page = FileManager.default.contents(atPath: corpus).map({ [UInt8]($0) }) {
        let text = String(
            decoding: FileManager.default.contents(
                atPath: root.appendingPathComponent("config/examples/supermami.yaml").path)!, as: UTF8.self)
        guard case .success(let config) = MappingConfigLoader().load(yaml: text, origin: "supermami.yaml"),
            case .success(let compiled) = LayoutCompiler(config: config).compile(page)
        else { fatalError("supermami page does not compile") }
        let a = try! RecordOutline(bytes: compiled.bytes)
        let b = try! RecordOutline(bytes: Shape.tagEveryTenthModel(a))
        Benchmark("diff/supermami-397KB-10pct") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(LayoutDiffer().diff(from: a, to: b, key: "k").bytes.count) }
        }
        let bytes = b.bytes
        Benchmark("outline+diff/supermami-397KB-10pct") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(LayoutDiffer().diff(from: a, to: try! RecordOutline(bytes: bytes), key: "k").bytes.count)
            }
        }
    }
}
