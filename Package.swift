// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "LayoutWorker",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "layout-worker", targets: ["layout-worker"]),
        .library(name: "LayoutCompiler", targets: ["LayoutCompiler"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // bytes → JSON: a strict, zero-copy tape reader and a byte writer.
        .target(name: "LayoutJSON", swiftSettings: strict),
        // JSON → content tree: content items found by `@type`, with tree paths.
        .target(name: "ContentTree", dependencies: ["LayoutJSON"], swiftSettings: strict),
        // content tree → adaptor sections: one adaptor per content item.
        .target(name: "Adaptors", dependencies: ["ContentTree", "LayoutJSON"], swiftSettings: strict),
        // sections → renderers: mapping config, condition language, resolution.
        .target(
            name: "Mapping",
            dependencies: ["Adaptors", "ContentTree", "LayoutJSON", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict),
        // resolved sections → layout record → bytes.
        .target(name: "LayoutRecord", dependencies: ["Adaptors", "ContentTree", "LayoutJSON"], swiftSettings: strict),
        // The pure compiler: bytes in, layout record bytes out.
        .target(
            name: "LayoutCompiler",
            dependencies: ["LayoutJSON", "ContentTree", "Adaptors", "Mapping", "LayoutRecord"],
            swiftSettings: strict),
        // The command-line edge.
        .executableTarget(
            name: "layout-worker",
            dependencies: [
                "LayoutCompiler",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        .target(name: "TestSupport", dependencies: ["LayoutJSON"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "LayoutJSONTests", dependencies: ["LayoutJSON", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ContentTreeTests", dependencies: ["ContentTree", "LayoutJSON", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MappingTests", dependencies: ["Mapping", "Adaptors", "ContentTree", "LayoutJSON", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "LayoutCompilerTests",
            dependencies: ["LayoutCompiler", "LayoutJSON", "Adaptors", "ContentTree", "Mapping", "TestSupport"],
            swiftSettings: strict),
    ]
)
