import Benchmark
import Foundation
import LayoutCompiler
import LayoutJSON
import Mapping

/// Compile throughput against Foundation's JSONSerialization parse of the same bytes, in one run.
let benchmarks: @Sendable () -> Void = {
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    func load(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
    func config(_ relative: String) -> MappingConfig {
        let text = String(decoding: load(root.appendingPathComponent(relative).path)!, as: UTF8.self)
        switch MappingConfigLoader().load(yaml: text, origin: relative) {
        case .success(let c): return c
        case .failure(let e): fatalError("\(relative): \(e)")
        }
    }
    var inputs: [(name: String, bytes: [UInt8], config: String)] = [
        ("search-page-45KB", load(root.appendingPathComponent("samples/search-page.json").path)!, "config/default.yaml"),
    ]
    let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/assembler/supermami-1.json").path
    if let real = load(corpus) { inputs.append(("supermami-397KB", real, "config/examples/supermami.yaml")) }

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )

    for input in inputs {
        let compiler = LayoutCompiler(config: config(input.config))
        let bytes = input.bytes
        Benchmark("compile/\(input.name)") { benchmark in
            for _ in benchmark.scaledIterations {
                switch compiler.compile(bytes) {
                case .success(let compiled): blackHole(compiled.bytes.count)
                case .failure(let failure): fatalError("\(failure)")
                }
            }
        }
        // Our reader alone (the compile's first stage), to show how much of the compile parsing takes.
        let reader = JSONReader(maxDepth: compiler.config.options.maxDepth)
        Benchmark("reader-parse/\(input.name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try reader.read(bytes).nodes.count)
            }
        }
        let data = Data(bytes)
        Benchmark("foundation-parse/\(input.name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONSerialization.jsonObject(with: data))
            }
        }
    }
}
