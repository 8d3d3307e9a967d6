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

#if canImport(Darwin)
let combineTarget: Target = .target(
    name: "TributaryAppleShim",
    path: "Sources/AppleShim"
)
let combineDependency: Target.Dependency = "TributaryAppleShim"
#else
let combineTarget: Target = .target(
    name: "Combine",
    path: "Sources/Combine",
    swiftSettings: strict
)
let combineDependency: Target.Dependency = "Combine"
#endif

let package = Package(
    name: "Tributary",
    products: [
        .library(name: "Combine", targets: [combineTarget.name]),
    ],
    targets: [
        combineTarget,
        .target(
            name: "TestSupport",
            dependencies: [combineDependency],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CombineTests",
            dependencies: [combineDependency, "TestSupport"],
            swiftSettings: strict
        ),
        // The source documents' own custom publisher, subscription and subscriber types, compiled
        // unchanged (the book's code is written for the Swift 5 language mode).
        .testTarget(
            name: "BookCustomTypesTests",
            dependencies: [combineDependency],
            swiftSettings: strict + [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
