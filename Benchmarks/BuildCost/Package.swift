// swift-tools-version: 6.1
//
// What the library costs the package that uses it, beyond speed per value: compile time and code
// size of a small client (five view models as a user of Apple's Combine writes them), built
// against our `Combine` and against OpenCombine 0.14.0. Measured by `Benchmarks/Scripts/build-cost`
// (see Benchmarks/README.md, "Build cost").
//
// The sources live once in `Shared/` and are compiled twice, as the benchmark targets are: each
// target's folder holds links to them, and `OpenCombineClient` compiles them with the
// `OPENCOMBINE` condition, which changes only the imports and the scheduler values (`Shared/Library.swift`).
//
// `BUILD_COST_OMIT=Search,Feed` leaves those view models out of both targets (the script builds
// such variants to find the code one file adds).

import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the clone was called.
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "Tributary").lowercased()

let viewModels = ["Search", "Feed", "Checkout", "Settings", "Chat"]
let omitted = (Context.environment["BUILD_COST_OMIT"] ?? "").split(separator: ",").map(String.init)
for name in omitted where !viewModels.contains(name) {
    fatalError("BUILD_COST_OMIT: no view model named \(name); they are \(viewModels)")
}
let excluded = omitted.map { "\($0)ViewModel.swift" }
let conditions: [SwiftSetting] = omitted.map { .define("OMIT_\($0.uppercased())") }

let package = Package(
    name: "BuildCost",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "TributaryClient",
            dependencies: [.product(name: "Combine", package: rootPackage)],
            path: "TributaryClient",
            exclude: excluded,
            swiftSettings: conditions
        ),
        .executableTarget(
            name: "OpenCombineClient",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
            ],
            path: "OpenCombineClient",
            exclude: excluded,
            swiftSettings: conditions + [.define("OPENCOMBINE")]
        ),
    ],
    // An app that has not moved to the Swift 6 mode: OpenCombine's types are not Sendable.
    swiftLanguageModes: [.v5]
)
