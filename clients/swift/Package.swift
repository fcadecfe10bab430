// swift-tools-version: 6.0
// LayoutKit: what a renderer needs to consume layout-worker's records and change sets. No dependencies, so an
// app can depend on it by path or URL without the service's (librdkafka, Yams, ...).
import PackageDescription

let package = Package(
    name: "LayoutKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15)],
    products: [.library(name: "LayoutKit", targets: ["LayoutKit"])],
    targets: [
        .target(name: "LayoutKit", swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "LayoutKitTests", dependencies: ["LayoutKit"]),
    ]
)
