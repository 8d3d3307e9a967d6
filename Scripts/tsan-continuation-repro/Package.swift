// swift-tools-version: 6.0
//
// Standalone reproduction (no Tributary code): does the thread sanitizer report a race between a
// continuation's `resume` on one thread and the resumed task's code right after
// `withUnsafeContinuation` / `withCheckedContinuation`, when the resume wins the race with the
// task's suspension? Not part of the root package.
//
//   swift build --sanitize=thread
//   swift run --sanitize=thread ContinuationRace [unsafe|checked] [thread|dispatch] [int|object] [rounds] [consumers]

import PackageDescription

let package = Package(
    name: "ContinuationRace",
    targets: [
        .executableTarget(name: "ContinuationRace"),
    ]
)
