// swift-tools-version: 6.1
//
// Benchmarks for Tributary, side by side with OpenCombine 0.14.0 and, where the work has a
// library-free form, a plain baseline (`BaselineBench`).
//
// A separate package so that the library's users never resolve ordo-one/benchmark or OpenCombine.
// Every workload is written once, in `Benchmarks/Shared/Workloads.swift`, and compiled twice: the
// `Tributary` target links against our `Combine` module, the `OpenCombine` target (built with the
// `OPENCOMBINE` condition) against OpenCombine. The two targets share no module, so neither
// library's code can leak into the other's numbers; `Shared/Workloads.swift` checks at start-up
// that each target really runs the library it claims to.
//
// Run: `swift package --disable-sandbox benchmark` (see Benchmarks/README.md).

import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the clone was called.
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Tributary").lowercased()

let benchmarkPlugin: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "TributaryBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "TributaryBench",
            dependencies: [
                .product(name: "Combine", package: rootPackage),
                .product(name: "Tributary", package: rootPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TributaryBench",
            plugins: benchmarkPlugin
        ),
        .executableTarget(
            name: "OpenCombineBench",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/OpenCombineBench",
            swiftSettings: [.define("OPENCOMBINE")],
            plugins: benchmarkPlugin
        ),
        // The same work as some workloads without a reactive library: the floor of those rows.
        .executableTarget(
            name: "BaselineBench",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/BaselineBench",
            plugins: benchmarkPlugin
        ),
        // Single workloads in a plain loop, for valgrind's instruction counts (see its main.swift).
        // Outside `Benchmarks/` so that the benchmark plugin does not try to run it.
        .executableTarget(
            name: "TributaryProfile",
            dependencies: [
                .product(name: "Combine", package: rootPackage),
                .product(name: "Tributary", package: rootPackage),
            ],
            path: "Profile"
        ),
        // Peak memory of a receive(on:) burst and bytes per live subscription, one executable per
        // library (see Memory/Shared/main.swift). Outside `Benchmarks/`, like TributaryProfile.
        .executableTarget(
            name: "TributaryMemory",
            dependencies: [.product(name: "Combine", package: rootPackage)],
            path: "Memory/Tributary"
        ),
        .executableTarget(
            name: "OpenCombineMemory",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "Memory/OpenCombine",
            swiftSettings: [.define("OPENCOMBINE")]
        ),
    ],
    // Swift 5 mode: OpenCombine's types are not Sendable, and the workloads hand publishers to tasks.
    swiftLanguageModes: [.v5]
)
