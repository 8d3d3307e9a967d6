// Runs every scenario of the table in its own forked child, so that a trap ends only that
// scenario, and prints its trace:
//
//     == <entry>|<script>          the scenario's key (script events separated by spaces)
//     <trace lines>
//     !! ok | trap | hang | exit(<code>)
//
// Lines starting with `~` carry the shape of a library object (description, mirror labels,
// playground description, conformances); the driver compares those per operator.
//
// A trap ends only the scenario that raised it: see `runAll(_:)`.
//
// usage: DiffTributary|DiffOpenCombine [--list] [--only <entry>]... [--random <count>] [--seed <n>]

#if OPENCOMBINE
import OpenCombine
let library = "OpenCombine"
#else
import Combine
let library = "Tributary"
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Guards against a target linking the other library (both spell their types the same way).
func checkLibrary() {
    let typeName = String(reflecting: PassthroughSubject<Int, Never>.self)
    #if OPENCOMBINE
    let expected = "OpenCombine.PassthroughSubject<Swift.Int, Swift.Never>"
    #else
    let expected = "Combine.PassthroughSubject<Swift.Int, Swift.Never>"
    #endif
    if typeName != expected { fatalError("\(library) harness runs \(typeName), expected \(expected)") }
}

/// The exhaustive scripts: every sequence over `alphabet` of each length up to the longest that
/// keeps the count near `budget`.
func exhaustiveScripts(_ alphabet: [Event], budget: Int = 1_600) -> [[Event]] {
    var scripts: [[Event]] = [[]]
    var layer: [[Event]] = [[]]
    while true {
        let next = layer.flatMap { prefix in alphabet.map { prefix + [$0] } }
        if scripts.count + next.count > budget { break }
        scripts += next
        layer = next
    }
    return scripts
}

/// SplitMix64: the same numbers on every platform and in both executables.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// FNV-1a of the entry's name, so that each entry gets its own random scripts.
func nameHash(_ name: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

func randomScripts(_ entry: Entry, count: Int, seed: UInt64) -> [[Event]] {
    var rng = SplitMix(state: seed ^ nameHash(entry.name))
    return (0..<count).map { _ in
        let length = 5 + rng.below(6)
        return (0..<length).map { _ in entry.events[rng.below(entry.events.count)] }
    }
}

/// The script each entry also runs under an `_Introspection` recorder: the common life of a
/// subscription (connected, subscribed, asked for everything, two values, a tick, finished),
/// with only the events the entry reads.
func introspectionScript(_ entry: Entry) -> [Event] {
    [.ins] + [Event.con, .sub, .rqU, .val, .adv, .val, .fin].filter(entry.events.contains)
}

func run(_ entry: Entry, _ script: [Event]) {
    downstreamOnValue = nil
    upstreamOnRequest = nil
    Reflection.begin(entry.name)
    let context = Context()
    let recorder = script.first == .ins ? IntrospectionRecorder() : nil
    recorder?.start()
    entry.build(context)
    for event in script { context.perform(event) }
    emit("-- end")
    context.endState()
    recorder?.stop()
    let downstream = Weak(context.downstream)
    // What the teardown releases, in a fixed order (the order of releases within a teardown is
    // not behaviour anyone can rely on).
    emit("-- teardown")
    teardown.begin()
    context.tearDown()
    teardown.end()
    if downstream.object != nil { emit("D retained after teardown") }
}

final class Weak {
    weak var object: AnyObject?
    init(_ object: AnyObject?) { self.object = object }
}

/// Collects the lines written during the teardown, to print them sorted.
enum teardown {
    static var lines: [String]?
    static func begin() { lines = [] }
    static func end() {
        let collected = lines ?? []
        lines = nil
        for line in collected.sorted() { emit(line) }
    }
}

/// One entry and the scripts it runs.
struct Plan {
    let entry: Entry
    let scripts: [[Event]]
}

/// Runs every scenario of `plans` in order, from a forked child, in one process while nothing
/// traps. The child records the index of the scenario it is running in memory shared with the
/// parent; when the child dies, the parent writes what that scenario traced, then its outcome,
/// and forks again from the next scenario.
func runAll(_ plans: [Plan]) {
    let total = plans.reduce(0) { $0 + $1.scripts.count }
    var start = 0
    while start < total {
        TraceBuffer.progress.pointee = start
        TraceBuffer.length.pointee = 0
        let pid = fork()
        if pid == 0 {
            let devNull = open("/dev/null", O_WRONLY)
            dup2(devNull, 2)
            var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
            setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
            // Skip to the plan holding scenario `start` without walking the scenarios before it.
            var index = 0
            var firstPlan = 0
            while index + plans[firstPlan].scripts.count <= start {
                index += plans[firstPlan].scripts.count
                firstPlan += 1
            }
            for plan in plans[firstPlan...] {
                for script in plan.scripts {
                    defer { index += 1 }
                    if index < start { continue }
                    TraceBuffer.progress.pointee = index
                    alarm(5)
                    emit("== \(plan.entry.name)|\(script.map(\.rawValue).joined(separator: " "))")
                    run(plan.entry, script)
                    emit("!! ok")
                    TraceBuffer.flush()
                }
            }
            _exit(0)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        if signal == 0 && code == 0 { return }
        if signal == 0 {
            emit("!! exit(\(code))")
        } else if signal == SIGALRM {
            emit("!! hang")
        } else {
            // fatalError, preconditions and the runtime's own checks raise SIGILL or SIGTRAP; an
            // abort (SIGABRT) or a bad access counts as a trap as well.
            emit("!! trap")
        }
        TraceBuffer.flush()
        start = TraceBuffer.progress.pointee + 1
    }
}

checkLibrary()
var arguments = Array(CommandLine.arguments.dropFirst())
var only: Set<String> = []
var randomCount = 40
var seed: UInt64 = 20_260_101
var listOnly = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--list": listOnly = true
    case "--only": only.insert(arguments.removeFirst())
    case "--random": randomCount = Int(arguments.removeFirst())!
    case "--seed": seed = UInt64(arguments.removeFirst())!
    default: fatalError("unknown argument \(argument)")
    }
}
var plans: [Plan] = []
for entry in table where only.isEmpty || only.contains(entry.name) {
    let scripts = exhaustiveScripts(entry.events) + randomScripts(entry, count: randomCount, seed: seed)
        + [introspectionScript(entry)]
    if listOnly {
        emit("\(entry.name)\t\(scripts.count)")
    } else {
        plans.append(Plan(entry: entry, scripts: scripts))
    }
}
TraceBuffer.flush()
runAll(plans)
