import Foundation
import Synchronization

/// Runs a body again and again, without pause, on a thread of its own until ``stop()``: e.g. the
/// checkpoint looks a test races its writers against.
///
/// NB: a thread, never a task: a task that never suspends holds one of the cooperative pool's threads
/// for as long as it runs, and the pool has one thread a core. On one core nothing else ever runs, not
/// even the writers whose end would stop the loop: the test run hangs for good.
public final class RepeatingThread: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts running `body` on a new thread, until ``stop()``.
    public init(_ body: @escaping @Sendable () -> Void) {
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) { body() }
            ended.signal()
        }.start()
    }

    /// Stops the loop and waits for the body's last run to end.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        ended.wait()
    }
}
