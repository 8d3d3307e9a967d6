// swift-tools-version: 6.1
//
// Differential tests: the same scripted scenarios run against our `Combine` and against
// OpenCombine 0.14.0, whose edge behaviour follows Apple's Combine closely.
//
// A separate package, like Benchmarks/: once our `Combine` module is built, `canImport(Combine)`
// holds and OpenCombine drops parts of its API, so the two libraries never share a target graph
// naively. The scenario source is written once (`Sources/Shared`) and compiled twice through
// symlinks: `DiffTributary` links our `Combine`, `DiffOpenCombine` (built with the `OPENCOMBINE`
// condition) links OpenCombine. Each executable prints one canonical trace per scenario;
// `Scripts/differential-tests` runs both and compares the traces.

import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the clone was called.
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Tributary").lowercased()

let package = Package(
    name: "TributaryDifferentialTests",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "DiffTributary",
            dependencies: [.product(name: "Combine", package: rootPackage)],
            path: "Sources/DiffTributary"
        ),
        .executableTarget(
            name: "DiffOpenCombine",
            dependencies: [.product(name: "OpenCombine", package: "OpenCombine")],
            path: "Sources/DiffOpenCombine",
            swiftSettings: [.define("OPENCOMBINE")]
        ),
    ],
    // Swift 5 mode: OpenCombine's types are not Sendable, and the harness keeps global state.
    swiftLanguageModes: [.v5]
)
