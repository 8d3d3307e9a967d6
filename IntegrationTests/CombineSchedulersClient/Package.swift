// swift-tools-version: 6.2
//
// Integration check: pointfreeco/combine-schedulers 1.2.2, a library written for Apple's Combine,
// compiled against Tributary's `Combine` module, plus a small client whose sources are written the
// way Apple-platform code is (`#if canImport(Combine) import Combine`).
//
// A separate package so that the library's users never resolve combine-schedulers.
// Run with `bash Scripts/integration-tests` from the repository root (see that script for why the
// `Combine` module is built first).

import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the clone was called.
let rootPackage = String(
    Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "Tributary"
).lowercased()

let combine: Target.Dependency = .product(name: "Combine", package: rootPackage)
let combineSchedulers: Target.Dependency = .product(name: "CombineSchedulers", package: "combine-schedulers")

let package = Package(
    name: "CombineSchedulersClient",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
    ],
    targets: [
        .target(name: "SchedulersClient", dependencies: [combine, combineSchedulers]),
        // A command-line program that drains `DispatchQueue.main` with `RunLoop.main.run(until:)`
        // or `dispatchMain()`; the script runs it and checks its output.
        .executableTarget(name: "MainQueueDemo", dependencies: [combine]),
        .testTarget(name: "SchedulersClientTests", dependencies: ["SchedulersClient", combine, combineSchedulers]),
        // `@preconcurrency import Combine` must keep code quiet that captures Combine's
        // non-`Sendable` types in `@Sendable` closures, as it does against Apple's Combine. One
        // source file, every warning an error, in the Swift 6 mode and in the Swift 5 mode with
        // complete checking.
        .target(
            name: "PreconcurrencyClient",
            dependencies: [combine],
            swiftSettings: [.swiftLanguageMode(.v6), .treatAllWarnings(as: .error)]
        ),
        .target(
            name: "PreconcurrencyClientSwift5",
            dependencies: [combine],
            swiftSettings: [
                .swiftLanguageMode(.v5), .enableUpcomingFeature("StrictConcurrency"),
                .treatAllWarnings(as: .error),
            ]
        ),
    ],
    swiftLanguageModes: [.v5]
)
