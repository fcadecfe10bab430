// swift-tools-version: 6.1
// libFuzzer targets, in their own package: built only by `make fuzz` with -sanitize=fuzzer,address.
import PackageDescription

let fuzzers = ["FuzzJSONReader", "FuzzContentTree", "FuzzCompile", "FuzzCondition", "FuzzChangeSet"]

let package = Package(
    name: "LayoutWorkerFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "LayoutWorker", path: "..")],
    targets: [.target(name: "FuzzSupport")]
        + fuzzers.map { name in
            .executableTarget(
                name: name,
                dependencies: [
                    "FuzzSupport", .product(name: "LayoutCompiler", package: "LayoutWorker"),
                    .product(name: "LayoutDiff", package: "LayoutWorker"),
                    .product(name: "LayoutKit", package: "LayoutWorker"),
                ])
        }
)
