import Combine
import Dispatch
import Foundation

/// Runs catalogue examples on real time, for the `examples` command.
public enum ExampleRunner {
    /// Runs `example` with its timers on the main queue, writing its output through `write`, and
    /// waits (running the main run loop, which also drains the main queue) until it finishes or
    /// `timeout` seconds pass. Returns whether it finished.
    @discardableResult
    public static func runOnRealTime(
        _ example: Example,
        timeout: TimeInterval = 30,
        write: @escaping (String) -> Void
    ) -> Bool {
        let io = ExampleIO(write: write)
        example.run(io: io, scheduler: DispatchQueue.main)
        let deadline = Date().addingTimeInterval(timeout)
        while !io.isFinished, Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        let finished = io.isFinished
        io.finish()
        return finished
    }
}
