import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The package's lock: mutual exclusion, and release when the body throws.
@Suite struct LockTests {
    @Test func concurrentIncrementsAreNeverLost() {
        let counter = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func aThrowingBodyReleasesTheLockAndKeepsItsChanges() {
        struct Failure: Error {}
        let state = Lock([1])
        #expect(throws: Failure.self) {
            try state.withLock { (values: inout [Int]) throws(Failure) in
                values.append(2)
                throw Failure()
            }
        }
        #expect(state.withLock { $0 } == [1, 2])
    }
}
