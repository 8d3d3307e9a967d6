// swift-tools-version: 6.2
//
// Tributary: Apple's Combine API for Linux and the other platforms Apple's Combine does not reach.
//
// On Apple platforms the system Combine framework is the real one. There the `Combine` product is
// an empty shim so that `import Combine` keeps resolving to Apple's framework and nothing is
// shadowed; our additional modules build on top of whichever `Combine` is imported.

import PackageDescription

/// Our own targets treat every warning as an error. `treatAllWarnings` is ignored by SwiftPM when
/// the package is consumed as a dependency, so users of the library are never affected.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

/// `Combine` is built in the Swift 5 language mode with every feature the Swift 6 mode turns on,
/// complete concurrency checking included, so it is checked as strictly (and, with `strict`, every
/// finding is an error). Only the mode number differs, and the compiler records it: a module built
/// in the Swift 6 mode counts as audited for concurrency, and `@preconcurrency import Combine` then
/// no longer silences Sendable diagnostics about its non-`Sendable` types (`any Cancellable`,
/// `any Subscription`, …). Against Apple's Combine that import does silence them, so code that is
/// quiet there would warn against ours. The explicit `Sendable` conformances are kept either way.
let swift6CheckingInSwift5Mode: [SwiftSetting] = [.swiftLanguageMode(.v5)] + [
    "StrictConcurrency", "ConciseMagicFile", "ForwardTrailingClosures", "BareSlashRegexLiterals",
    "DeprecateApplicationMain", "ImportObjcForwardDeclarations", "DisableOutwardActorInference",
    "IsolatedDefaultValues", "GlobalConcurrency", "InferSendableFromCaptures",
    "ImplicitOpenExistentials", "RegionBasedIsolation", "DynamicActorIsolation",
    "NonfrozenEnumExhaustivity", "GlobalActorIsolatedTypesUsability",
].map { SwiftSetting.enableUpcomingFeature($0) }

#if canImport(Darwin)
let combineTarget: Target = .target(
    name: "TributaryAppleShim",
    path: "Sources/AppleShim"
)
let combineDependency: Target.Dependency = "TributaryAppleShim"
#else
let combineTarget: Target = .target(
    name: "Combine",
    dependencies: ["TributaryLocks"],
    path: "Sources/Combine",
    swiftSettings: strict + swift6CheckingInSwift5Mode
)
let combineDependency: Target.Dependency = "Combine"
#endif

let package = Package(
    name: "Tributary",
    products: [
        .library(name: "Combine", targets: [combineTarget.name]),
        .executable(name: "examples", targets: ["examples"]),
        .executable(name: "news", targets: ["news"]),
        .library(name: "Tributary", targets: ["Tributary"]),
        .library(name: "CombineTesting", targets: ["CombineTesting"]),
        .library(name: "CombineTestingXCTest", targets: ["CombineTestingXCTest"]),
    ],
    dependencies: [
        // Test-only: a real HTTP server on 127.0.0.1 (URLSession.dataTaskPublisher and news tests).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // The package's one lock type, shared by `Combine` and by the modules that build on Apple's
        // Combine on Apple platforms (so it cannot live inside our `Combine` module).
        .target(name: "TributaryLocks", swiftSettings: strict),
        combineTarget,
        // Our additions on top of whichever `Combine` is imported (Apple's public API only).
        .target(
            name: "Tributary",
            dependencies: [combineDependency, "TributaryLocks"],
            swiftSettings: strict
        ),
        // Virtual-time scheduler, recording subscriber and marble diagrams for testing Combine code.
        .target(
            name: "CombineTesting",
            dependencies: [combineDependency, "Tributary", "TributaryLocks"],
            swiftSettings: strict
        ),
        // XCTest assertions over CombineTesting; separate so Swift Testing users never link XCTest.
        .target(
            name: "CombineTestingXCTest",
            dependencies: [combineDependency, "CombineTesting"],
            swiftSettings: strict
        ),
        .target(
            name: "TestSupport",
            dependencies: [combineDependency],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CombineTests",
            dependencies: [combineDependency, "TestSupport", "CombineTesting"],
            swiftSettings: strict
        ),
        // Kept apart so that only these tests build the HTTP server dependency.
        .testTarget(
            name: "CombineNetworkingTests",
            dependencies: [combineDependency, "TestSupport", .product(name: "FlyingFox", package: "FlyingFox")],
            swiftSettings: strict
        ),
        // Concurrency stress, leak audit, misuse traps and the randomized pipeline checker; kept
        // apart so CI can run exactly these under the thread sanitizer.
        .testTarget(
            name: "StressTests",
            dependencies: [combineDependency, "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TributaryTests",
            dependencies: [combineDependency, "Tributary", "CombineTesting", "TestSupport"],
            swiftSettings: strict
        ),
        // Code as a user writes it in Swift 6 language mode, with complete strict concurrency
        // checking: it must build without a single warning.
        .testTarget(
            name: "Swift6UserCodeTests",
            dependencies: [combineDependency],
            swiftSettings: strict + [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "CombineTestingTests",
            dependencies: [combineDependency, "CombineTesting", "CombineTestingXCTest", "Tributary", "TestSupport"],
            swiftSettings: strict
        ),
        // The source documents' own custom publisher, subscription and subscriber types, compiled
        // unchanged (the book's code is written for the Swift 5 language mode).
        .testTarget(
            name: "BookCustomTypesTests",
            dependencies: [combineDependency, "CombineTesting", "TestSupport"],
            swiftSettings: strict + [.swiftLanguageMode(.v5)]
        ),

        // The books' examples: a catalogue library shared by the `examples` command and its tests.
        .target(
            name: "ExamplesCatalogue",
            dependencies: [combineDependency, "CombineTesting", "NewsKit", "Tributary"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "examples",
            dependencies: ["ExamplesCatalogue"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["ExamplesCatalogue", combineDependency, "CombineTesting"],
            swiftSettings: strict
        ),

        // The books' Hacker News reader, as a terminal program over a bundled API snapshot.
        .target(
            name: "NewsKit",
            dependencies: [combineDependency],
            resources: [.copy("Snapshot")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "news",
            dependencies: ["NewsKit"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NewsKitTests",
            dependencies: [
                "NewsKit",
                combineDependency,
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict
        ),

        // The testing chapter's colour calculator model and its XCTest suite.
        .target(
            name: "ColorCalc",
            dependencies: [combineDependency],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ColorCalcTests",
            dependencies: ["ColorCalc", "ExamplesCatalogue", combineDependency],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
