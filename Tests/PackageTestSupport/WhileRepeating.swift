import Foundation
import Synchronization

/// Runs `body` while `repeated` runs again and again, on a thread of its own: e.g. the checkpoint
/// looks a test races its writers against. The loop stops, and its last run ends, before this returns
/// or throws (else it would spin on after a failure).
///
/// NB: the thread pauses 100 µs between runs (thousands of runs a second, still many in every write a
/// writer makes): the race wants a repeater that is always about to run, not one that holds a core.
/// Without the pause (`sched_yield` alone does little under Linux's scheduler), on 2 cores, the loop
/// halved the machine for the writers it races and for every other test of a parallel run.
///
/// NB: a thread, never a task: a task that never suspends holds one of the cooperative pool's threads
/// for as long as it runs, and the pool has one thread a core. On one core nothing else ever runs, not
/// even the writers whose end would stop the loop: the test run hangs for good.
public func whileRepeating<T>(
    _ repeated: @escaping @Sendable () -> Void, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
) async throws -> T {
    let thread = RepeatingThread(repeated)
    defer { thread.stop() }
    return try await body()
}

/// The synchronous form of ``whileRepeating(_:isolation:_:)``.
public func whileRepeating<T>(_ repeated: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
    let thread = RepeatingThread(repeated)
    defer { thread.stop() }
    return try body()
}

/// The thread of ``whileRepeating(_:isolation:_:)``.
private final class RepeatingThread: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts running `body` on a new thread, until ``stop()``.
    init(_ body: @escaping @Sendable () -> Void) {
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                body()
                usleep(100)
            }
            ended.signal()
        }.start()
    }

    /// Stops the loop and waits for the body's last run to end.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        ended.wait()
    }
}
