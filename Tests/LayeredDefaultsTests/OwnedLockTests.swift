import Foundation
import PackageTestSupport
import Synchronization
import Testing

@testable import LayeredDefaults

/// The store's lock: refuses only waits that close a cycle.
@Suite struct OwnedLockTests {
    /// Six threads take random subsets of four locks, always in one order, 20,000 times each: no wait
    /// can close a cycle, so none may be refused (a refusal would be a spurious `transactionCycle`).
    @Test func locksTakenInOneOrderAreNeverRefused() {
        let locks = (0..<4).map { _ in OwnedLock() }
        let refused = Atomic<Int>(0)
        /// Takes `rest`, in order, each inside the one before.
        @Sendable func take(_ rest: ArraySlice<Int>) throws {
            guard let first = rest.first else { return }
            try locks[first].withLock { _ in try take(rest.dropFirst()) }
        }
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            for _ in 0..<20_000 {
                do {
                    try take(locks.indices.filter { _ in Bool.random() }[...])
                } catch {
                    refused.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(refused.load(ordering: .relaxed) == 0, "a wait that could not deadlock was refused")
    }

    /// The thread's count of held locks follows every way out: a body that returns, one that throws,
    /// and a re-entry (which takes nothing).
    @Test func aThreadHoldsALockExactlyWhileInsideIt() throws {
        struct Failure: Error {}
        let lock = OwnedLock()
        #expect(!OwnedLock.isAnyHeldByCurrentThread)
        try lock.withLock { reentered in
            #expect(!reentered && OwnedLock.isAnyHeldByCurrentThread && lock.isHeldByCurrentThread)
            try lock.withLock { reentered in #expect(reentered) }
            #expect(OwnedLock.isAnyHeldByCurrentThread, "leaving a re-entry releases nothing")
        }
        #expect(!OwnedLock.isAnyHeldByCurrentThread && !lock.isHeldByCurrentThread)
        #expect(throws: Failure.self) { try lock.withLock { _ in throw Failure() } }
        #expect(!OwnedLock.isAnyHeldByCurrentThread && !lock.isHeldByCurrentThread, "a throwing body released it")
    }
}
