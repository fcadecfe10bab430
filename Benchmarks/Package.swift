// swift-tools-version: 6.1
// Benchmarks live in their own package so the main build never resolves or builds the benchmark tooling.
import PackageDescription

let package = Package(
    name: "LayoutWorkerBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "LayoutWorker", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CompileBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LayoutCompiler", package: "LayoutWorker"),
            ],
            path: "Benchmarks/CompileBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DiffBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LayoutCompiler", package: "LayoutWorker"),
                .product(name: "LayoutDiff", package: "LayoutWorker"),
                .product(name: "SplitMix", package: "LayoutWorker"),
                .product(name: "LayoutKit", package: "LayoutWorker"),
            ],
            path: "Benchmarks/DiffBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
