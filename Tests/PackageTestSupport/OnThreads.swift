import Foundation
import LayeredDefaults

/// Runs `body(0)`, `body(1)`, ... `body(count - 1)` at once, each on a thread of its own, and returns
/// once all have ended; rethrows the first error thrown (the others still run to their end).
///
/// NB: threads, never tasks of a task group, for work that blocks (SQLite, locks, file I/O): the
/// cooperative pool has one thread a core, so on 2 cores 8 blocking tasks run 2 at a time, which
/// neither races them as the test means nor leaves a thread for the rest of a parallel run.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let group = DispatchGroup()
    let firstError = Lock<(any Error)?>(nil)
    for index in 0..<count {
        group.enter()
        Thread {
            do { try body(index) } catch { firstError.withLock { $0 = $0 ?? error } }
            group.leave()
        }
        .start()
    }
    group.wait()
    if let error = firstError.withLock({ $0 }) { throw error }
}
