// swift-tools-version: 6.2
import PackageDescription

// librdkafka >= 2.1 comes from pkg-config (`make deps` builds it into .deps/librdkafka when the system's is
// older); the Makefile links the binary and the tests with an rpath to that build (on the command line: an
// `unsafeFlags` setting here would make the libraries unusable as a versioned dependency).

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // The project's own code builds without a warning. A warning-control setting, not a compiler flag: SwiftPM
    // applies it to this package only, so the libraries stay usable as a versioned dependency.
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "LayoutWorker",
    // iOS and tvOS for the renderer kit's products, which an app adds by this repository's URL (the service itself
    // builds for macOS and Linux).
    platforms: [.macOS(.v15), .iOS(.v15), .tvOS(.v15)],
    products: [
        .executable(name: "layout-worker", targets: ["layout-worker"]),
        // The renderer kit (clients/swift/Sources): what an app adds by this repository's URL and a version tag.
        // Neither depends on anything, so an app resolving them fetches none of the service's dependencies.
        .library(name: "LayoutKit", targets: ["LayoutKit"]),
        .library(name: "LayoutFeed", targets: ["LayoutFeed"]),
        .library(name: "LayoutCompiler", targets: ["LayoutCompiler", "MappingFiles"]),
        .library(name: "LayoutDiff", targets: ["LayoutDiff", "AttributeCarrying"]),
        .library(name: "SplitMix", targets: ["SplitMix"]),
        // The command line and the service, for a program that embeds them (e.g. to bootstrap a tracer).
        .library(name: "LayoutWorkerCLI", targets: ["LayoutWorkerCLI"]),
        .library(
            name: "Serve", targets: ["Serve", "PageState", "StoreResume", "Replay", "Delivery", "Ops", "ConfigReload"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // The renderer kit, the same sources clients/swift/Package.swift builds (an app may add that one by path):
        // records, change sets and the applier the worker shares with apps (`Wire`), and a page followed through
        // the gateway.
        .target(
            name: "LayoutKit", path: "clients/swift/Sources/LayoutKit", swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(
            name: "LayoutFeed", dependencies: ["LayoutKit"], path: "clients/swift/Sources/LayoutFeed",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // SplitMix64: the one deterministic random generator (trace span ids, property tests, benchmark shapes).
        .target(name: "SplitMix", swiftSettings: strict),
        // bytes → JSON: a strict, zero-copy tape reader and a byte writer.
        .target(name: "CJSONScan"),
        .target(
            name: "LayoutJSON", dependencies: ["CJSONScan", "LayoutKit"],
            swiftSettings: strict),
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
        .target(
            name: "LayoutRecord",
            dependencies: ["Adaptors", "ContentTree", "LayoutJSON", "LayoutKit"],
            swiftSettings: strict),
        // layout record → change set: records read back, diffed by id, change sets written and applied.
        .target(
            name: "LayoutDiff",
            dependencies: ["LayoutJSON", "LayoutRecord", "LayoutKit"],
            swiftSettings: strict),
        // The pure compiler: bytes in, layout record bytes out.
        .target(
            name: "LayoutCompiler",
            dependencies: [
                "LayoutJSON", "ContentTree", "Adaptors", "Mapping", "LayoutRecord",
                "LayoutKit",
            ],
            swiftSettings: strict),
        // Mapping config files read from disk (the compiler takes their bytes).
        .target(name: "MappingFiles", dependencies: ["LayoutCompiler", "Mapping"], swiftSettings: strict),
        // The compiler in use and its reloads (SIGHUP, a changed file): what `serve` and `gateway --origin` compile
        // with.
        .target(
            name: "ConfigReload",
            dependencies: [
                "LayoutCompiler", "MappingFiles", "Ops", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // previous layout + new record → record with the adaptors' carried attributes and the change set to it
        // (`PageStep`; needs state, so not the compiler).
        .target(
            name: "AttributeCarrying",
            dependencies: [
                "Adaptors", "LayoutCompiler", "LayoutJSON", "LayoutDiff", "LayoutRecord",
                "LayoutKit",
            ],
            swiftSettings: strict),
        // The Kafka edge: librdkafka (C) and the Swift wrapper that owns every call into it.
        .systemLibrary(name: "CRdKafka", pkgConfig: "rdkafka", providers: [.apt(["librdkafka-dev"])]),
        .target(
            name: "Kafka",
            dependencies: ["CRdKafka", "LayoutJSON", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        // For tests: librdkafka's mock cluster (leader changes, brokers down, injected errors).
        .target(name: "KafkaTesting", dependencies: ["CRdKafka", "Kafka"], swiftSettings: strict),
        // The persistent page store `serve` and `gateway` share: latest records, positions, change sets and topic
        // checkpoints per page key, on disk in RocksDB (Debian's librocksdb-dev), a cache of the topics.
        .systemLibrary(name: "CRocksDB", pkgConfig: "rocksdb", providers: [.apt(["librocksdb-dev"])]),
        .target(
            name: "PageStore",
            dependencies: [
                "CRocksDB", "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // What every long-running command shares for operations: JSON logs (secrets redacted), the ops endpoints
        // (/metrics, /healthz, /readyz) and their status, process metrics, file stamps for config watching.
        .target(
            name: "Ops",
            dependencies: [
                "LayoutJSON",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // Getting a compiled message out: its outcome, the outputs it becomes, the delivery engine (acknowledgements,
        // retries, dead letters, blocked outputs), offsets done without a gap, output headers, message traces.
        .target(
            name: "Delivery",
            dependencies: [
                "Kafka", "LayoutCompiler", "LayoutRecord", "SplitMix",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict),
        // `replay`: a bounded range of a topic recompiled into a chosen topic, by assignment, with a checkpoint.
        .target(
            name: "Replay",
            dependencies: [
                "Kafka", "Delivery", "Ops", "LayoutCompiler",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict),
        // Where a page store resumes reading its topics (replaced topics, checkpoints outside their partitions):
        // the one step the worker and the gateway take.
        .target(
            name: "StoreResume",
            dependencies: ["Kafka", "PageStore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        // A worker's pages: the change-set stage (each message's step from its page's latest layout), the memory
        // cache in front of the page store, and the latest layouts read back from their topic on assignment.
        .target(
            name: "PageState",
            dependencies: [
                "Kafka", "Delivery", "LayoutCompiler", "LayoutRecord", "LayoutDiff", "LayoutJSON", "AttributeCarrying",
                "PageStore", "StoreResume",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // `serve`: the consumer-group service (the consumer session, each message's output plan, the loop moving
        // batches between them, the crash-loop breaker, config reloads, the worker's metrics).
        .target(
            name: "Serve",
            dependencies: [
                "Kafka", "Delivery", "Ops", "PageState", "LayoutCompiler", "LayoutRecord", "LayoutDiff", "LayoutJSON",
                "Mapping", "MappingFiles", "ConfigReload", "ContentTree", "PageStore", "StoreResume",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict),
        // `gateway`: latest layouts over HTTP and change sets as server-sent events, from the topics `serve` writes.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "Gateway",
            dependencies: [
                "Kafka", "Ops", "LayoutJSON", "CZlib", "PageStore", "StoreResume", "CAllocator", "LayoutCompiler",
                "LayoutDiff", "LayoutRecord", "ConfigReload",
                "LayoutKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict,
            plugins: ["EmbedPreviewPage"]),
        // The preview: a page drawing compiled layouts live from files or a topic (clients/web compiled in).
        .executableTarget(name: "FileEmbedder"),
        .plugin(name: "EmbedPreviewPage", capability: .buildTool(), dependencies: ["FileEmbedder"]),
        .target(
            name: "LayoutPreview",
            dependencies: [
                "LayoutCompiler", "LayoutDiff", "LayoutRecord", "LayoutJSON", "AttributeCarrying", "Kafka", "Ops",
                "Mapping",
                "LayoutKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict,
            plugins: ["EmbedPreviewPage"]),
        // The command-line edge: every subcommand; a library, so a program can embed it with a tracer bootstrapped.
        // mallopt for the executable (glibc's malloc.h is not in Swift's Glibc module): see ProcessAllocator.
        .target(name: "CAllocator"),
        .target(
            name: "LayoutWorkerCLI",
            dependencies: [
                "LayoutCompiler", "Serve", "PageState", "Delivery", "Replay", "LayoutDiff", "Kafka", "Mapping",
                "MappingFiles", "ConfigReload",
                "LayoutJSON", "LayoutRecord", "LayoutPreview", "CAllocator", "Ops", "Gateway", "PageStore",
                "LayoutKit",
                "ContentTree",
                "AttributeCarrying",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict),
        // The `layout-worker` executable.
        .executableTarget(
            name: "layout-worker", dependencies: ["LayoutWorkerCLI"], swiftSettings: strict),

        .target(
            name: "TestSupport",
            dependencies: [
                "LayoutJSON", "LayoutCompiler", "LayoutRecord", "SplitMix", "Mapping", "MappingFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strict),
        .testTarget(
            name: "LayoutDiffTests",
            dependencies: [
                "LayoutDiff", "LayoutJSON", "LayoutCompiler", "LayoutRecord", "Mapping", "MappingFiles",
                "AttributeCarrying", "Adaptors", "TestSupport",
                "LayoutKit",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PageStoreTests",
            dependencies: ["PageStore", "TestSupport", "LayoutKit"],
            swiftSettings: strict),
        .testTarget(
            name: "StoreResumeTests",
            dependencies: [
                "StoreResume", "Kafka", "PageStore", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway", "Kafka", "KafkaTesting", "Ops", "PageStore", "TestSupport",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LayoutJSONTests", dependencies: ["LayoutJSON", "CJSONScan", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ContentTreeTests", dependencies: ["ContentTree", "LayoutJSON", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MappingTests", dependencies: ["Mapping", "Adaptors", "ContentTree", "LayoutJSON", "TestSupport"],
            swiftSettings: strict),
        // For the process tests: a test broker per test, the binary as a worker, raw HTTP on loopback, test messages.
        .target(
            name: "ProcessTestSupport",
            dependencies: [
                "Delivery", "Kafka", "KafkaTesting", "LayoutJSON", "TestSupport",
                "LayoutKit",
            ],
            path: "Tests/ProcessTestSupport",
            swiftSettings: strict),
        // The process tests: a module's behaviour through the `layout-worker` binary, against test brokers (and nginx
        // and Varnish in front of the gateway), each target named after the module it exercises.
        .testTarget(
            name: "ServeProcessTests",
            dependencies: [
                "Serve", "ProcessTestSupport", "Delivery", "Kafka", "KafkaTesting", "LayoutCompiler", "LayoutDiff",
                "LayoutJSON", "LayoutRecord", "Mapping", "ConfigReload", "Ops", "TestSupport",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PageStoreProcessTests",
            dependencies: [
                "PageStore", "ProcessTestSupport", "Delivery", "Kafka", "LayoutJSON", "TestSupport",
                "LayoutKit",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "GatewayProcessTests",
            dependencies: [
                "ProcessTestSupport", "Delivery", "Kafka", "PageStore", "TestSupport",
                "LayoutKit",
                "LayoutFeed",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ReplayProcessTests",
            dependencies: ["ProcessTestSupport", "Kafka", "LayoutJSON", "Serve", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "LayoutWorkerCLIProcessTests",
            dependencies: [
                "ProcessTestSupport", "Delivery", "Kafka", "LayoutCompiler", "Serve", "TestSupport",
                "LayoutKit",
            ],
            swiftSettings: strict),
        // Cross-cutting contracts, no process: the wire names the kits and schemas repeat, the names the docs give.
        .testTarget(
            name: "ContractTests",
            dependencies: [
                "Delivery", "LayoutCompiler", "Serve", "TestSupport", "LayoutKit",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LayoutPreviewProcessTests",
            dependencies: [
                "LayoutPreview", "ProcessTestSupport", "Delivery", "Kafka", "LayoutCompiler", "LayoutDiff",
                "LayoutJSON", "LayoutRecord", "Ops", "Serve", "TestSupport",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DeliveryTests",
            dependencies: [
                "Delivery", "Kafka", "KafkaTesting", "LayoutCompiler", "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PageStateTests",
            dependencies: [
                "PageState", "PageStore", "Kafka", "LayoutCompiler", "LayoutDiff", "LayoutRecord", "TestSupport",
                "LayoutKit",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ConfigReloadTests",
            dependencies: [
                "ConfigReload", "LayoutCompiler", "Mapping", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ServeTests",
            dependencies: [
                "Serve", "PageState", "PageStore", "Delivery", "Kafka", "LayoutCompiler", "TestSupport", "Ops",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LayoutWorkerCLITests",
            dependencies: [
                "LayoutWorkerCLI", "LayoutJSON", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .testTarget(name: "AdaptorsTests", dependencies: ["Adaptors"], swiftSettings: strict),
        .testTarget(
            name: "KafkaTests",
            dependencies: ["Kafka", "KafkaTesting", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .testTarget(
            name: "OpsTests",
            dependencies: [
                "Ops", "TestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LayoutRecordTests",
            dependencies: ["LayoutRecord", "LayoutJSON", "LayoutKit"],
            swiftSettings: strict),
        .testTarget(
            name: "AttributeCarryingTests",
            dependencies: [
                "AttributeCarrying", "Adaptors", "LayoutCompiler", "LayoutDiff", "LayoutJSON", "LayoutRecord",
                "Mapping",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LayoutPreviewTests",
            dependencies: [
                "LayoutPreview", "LayoutCompiler", "LayoutDiff", "LayoutRecord", "Mapping", "TestSupport",
                "LayoutKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ReplayTests", dependencies: ["Replay", "Ops"], swiftSettings: strict),
        .testTarget(
            name: "LayoutCompilerTests",
            dependencies: [
                "LayoutCompiler", "LayoutJSON", "LayoutRecord", "Adaptors", "ContentTree", "Mapping", "TestSupport",
            ],
            swiftSettings: strict),
        // The renderer kit's own tests (clients/swift/Tests), built here with the rest so that one build serves both;
        // `swift test` in clients/swift runs the same tests against the kit alone.
        .testTarget(
            name: "LayoutKitTests", dependencies: ["LayoutKit"],
            path: "clients/swift/Tests/LayoutKitTests"),
        .testTarget(
            name: "LayoutFeedTests",
            dependencies: [
                "LayoutFeed", "LayoutKit",
            ],
            path: "clients/swift/Tests/LayoutFeedTests"),
    ]
)
