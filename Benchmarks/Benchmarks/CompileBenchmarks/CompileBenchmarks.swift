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
        ("search-page-45KB", load(root.appendingPathComponent("samples/search-page.json").path)!, "config/default.yaml")
    ]
    let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/assembler/supermami-1.json")
        .path
    if let real = load(corpus) { inputs.append(("supermami-397KB", real, "config/examples/supermami.yaml")) }

    // Timed benchmarks measure time only; the allocation counts come from benchmarks of their own below.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )

    /// Foundation's parse time over one compile's, ×100 (ordo-one metrics are integers).
    let speedup = BenchmarkMetric.custom(
        "Foundation parse / compile (x100)", polarity: .prefersLarger, useScalingFactor: false)

    for input in inputs {
        let compiler = LayoutCompiler(config: config(input.config))
        let bytes = input.bytes
        // On the small page one call takes tens of microseconds, about what the harness spends around each sample
        // (measured: 15–20 µs), so each sample there times 1,000 back-to-back calls and the results are reported per
        // call; Foundation's parse gets the same, with a longer budget since a sample of it takes 1–2 s.
        let small = bytes.count < 100_000
        func configuration(seconds: Int) -> Benchmark.Configuration {
            .init(scalingFactor: small ? .kilo : .one, maxDuration: .seconds(small ? seconds : 3))
        }
        @Sendable func compileOnce() {
            switch compiler.compile(bytes) {
            case .success(let compiled): blackHole(compiled.bytes.count)
            case .failure(let failure): fatalError("\(failure)")
            }
        }
        Benchmark("compile/\(input.name)", configuration: configuration(seconds: 5)) { benchmark in
            for _ in benchmark.scaledIterations { compileOnce() }
        }
        // Our reader alone (the compile's first stage), to show how much of the compile parsing takes.
        let reader = JSONReader(maxDepth: compiler.config.options.maxDepth)
        Benchmark("reader-parse/\(input.name)", configuration: configuration(seconds: 5)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try reader.read(bytes).nodes.count)
            }
        }
        let data = Data(bytes)
        Benchmark("foundation-parse/\(input.name)", configuration: configuration(seconds: 15)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONSerialization.jsonObject(with: data))
            }
        }
        // 1,000 compiles per sample, so the harness's own allocations around a sample (about 16) are not counted.
        Benchmark(
            "allocations/compile/\(input.name)",
            configuration: .init(
                metrics: [.mallocCountTotal, .peakMemoryResident], scalingFactor: .kilo, maxDuration: .seconds(1),
                maxIterations: 3)
        ) { benchmark in
            for _ in benchmark.scaledIterations { compileOnce() }
        }
        Benchmark(
            "allocations/foundation-parse/\(input.name)",
            configuration: .init(metrics: [.mallocCountTotal], maxDuration: .seconds(1), maxIterations: 50)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONSerialization.jsonObject(with: data))
            }
        }
        // The target itself, measured so that the shared machine's swings cancel out: each sample times ten compiles
        // and then one Foundation parse, back to back (milliseconds apart), and records how many times longer the
        // parse took than one compile. The benchmarks above run seconds apart, so their p50s can land in different
        // phases of the machine's load.
        Benchmark(
            "compile-vs-foundation/\(input.name)",
            configuration: .init(
                metrics: [speedup], warmupIterations: 3, maxDuration: .seconds(8), maxIterations: 2_000)
        ) { benchmark in
            let clock = ContinuousClock()
            let compiles = 10
            let start = clock.now
            for _ in 0..<compiles { compileOnce() }
            let compiled = clock.now
            blackHole(try JSONSerialization.jsonObject(with: data))
            let parsed = clock.now
            let perCompile = (compiled - start) / compiles
            benchmark.measurement(speedup, Int(((parsed - compiled) / perCompile * 100).rounded()))
        }
    }
}
