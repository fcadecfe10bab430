// swift-tools-version: 6.0
// LayoutKit: what a renderer needs to consume layout-worker's records and change sets. No dependencies, so an
// app can depend on it by path or URL without the service's (librdkafka, Yams, ...).
import PackageDescription

let package = Package(
    name: "LayoutKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15)],
    products: [
        .library(name: "LayoutKit", targets: ["LayoutKit"]),
        // A page followed through `layout-worker gateway` (Foundation and URLSession; LayoutKit itself needs neither).
        .library(name: "LayoutFeed", targets: ["LayoutFeed"]),
    ],
    targets: [
        .target(name: "LayoutKit", swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "LayoutFeed", dependencies: ["LayoutKit"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "LayoutKitTests", dependencies: ["LayoutKit"]),
        .testTarget(name: "LayoutFeedTests", dependencies: ["LayoutFeed", "LayoutKit"]),
    ]
)
