import Foundation
import LayeredDefaults
import Observation
import Testing

@testable import LayeredDefaultsTesting

/// A model of the main actor, as an app's, changed by the tests below.
@MainActor @Observable private final class Tally {
    var count = 0
}

/// `ObservedValues` and `waitUntilObserved`: waits that resume when what they wait for is delivered.
@Suite struct ObservationWaitTests {
    @Test func aWaitResumesWhenTheElementsItWaitsForArrive() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let values = ObservedValues(stream)
        let waiting = Task { try await values.first(2) }
        continuation.yield(1)
        continuation.yield(2)
        continuation.yield(3)
        #expect(try await waiting.value == [1, 2], "the first two, however many came since")
        #expect(try await values.until { $0.last == 3 } == [1, 2, 3])
        #expect(values.elements == [1, 2, 3])
    }

    @Test func aStoreObservationIsCollected() async throws {
        try await withIsolatedDefaults(.inMemory) { (defaults: Defaults, _: String) async throws in
            let key = Defaults.Key("size", default: 12)
            let sizes = ObservedValues(defaults.changes(of: .key(key)))
            #expect(try await sizes.first(1) == [12], "the current value")
            defaults[key] = 14
            #expect(try await sizes.first(2) == [12, 14], "then the change")
        }
    }

    @Test func aWaitForWhatNeverComesTimesOut() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let values = ObservedValues(stream)
        continuation.yield(1)
        await #expect(throws: ObservationWaitError.timedOut(after: .milliseconds(50))) {
            try await values.first(2, timeout: .milliseconds(50))
        }
        #expect(try await values.first(1) == [1], "a timed-out wait leaves the others working")
        continuation.finish()
    }

    @Test func aSequenceThatEndsFailsTheWaitsItCannotSatisfy() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let values = ObservedValues(stream)
        let waiting = Task { try await values.first(2) }
        continuation.yield(1)
        continuation.finish()
        await #expect(throws: ObservationWaitError.sequenceEnded(delivered: 1)) { try await waiting.value }
        await #expect(throws: ObservationWaitError.sequenceEnded(delivered: 1), "also a wait that starts later") {
            try await values.first(2)
        }
        #expect(try await values.first(1) == [1], "what it can satisfy, it still does")
    }

    @Test func cancellingTheWaitingTaskEndsTheWait() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let values = ObservedValues(stream)
        let waiting = Task { try await values.first(1) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        continuation.finish()
    }

    @Test @MainActor func aConditionThatHoldsReturnsAtOnce() async throws {
        let counter = Tally()
        try await waitUntilObserved(timeout: .milliseconds(1)) { counter.count == 0 }
    }

    @Test @MainActor func aConditionIsAskedAgainWhenTheStateItReadChanges() async throws {
        let counter = Tally()
        var asked = 0
        Task { @MainActor in
            // NB: a pause, so that a wait that polled would ask many times meanwhile; not an assertion.
            try await Task.sleep(for: .milliseconds(200))
            counter.count = 3
        }
        try await waitUntilObserved {
            asked += 1
            return counter.count == 3
        }
        #expect(asked == 2, "asked now and once after the change, never on a timer")
    }

    @Test @MainActor func aConditionThatNeverHoldsTimesOut() async throws {
        let counter = Tally()
        await #expect(throws: ObservationWaitError.timedOut(after: .milliseconds(50))) {
            try await waitUntilObserved(timeout: .milliseconds(50)) { counter.count == 1 }
        }
    }

    @Test func messagesSayWhatToCheck() {
        #expect(ObservationWaitError.timedOut(after: .seconds(60)).description.contains("check that"))
        #expect(ObservationWaitError.sequenceEnded(delivered: 2).description.contains("after 2 elements"))
    }
}
