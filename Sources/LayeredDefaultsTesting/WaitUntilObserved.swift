import Observation

/// Waits until `condition` holds, asking it again each time `@Observable` state it read changes:
/// a test awaits what an observation delivers to a model, without sleeping.
///
/// ```swift
/// @Test @MainActor func theModelFollowsTheStore() async throws {
///     try await withIsolatedDefaults(.inMemory) { defaults, _ in
///         let model = SettingsModel(defaults: defaults)
///         try defaults.write(20, for: .fontSize)  // as another instance or process would
///         try await waitUntilObserved { model.fontSize == 20 }
///     }
/// }
/// ```
///
/// `condition` runs on the main actor, now and after each change of what it read (tracked with
/// `withObservationTracking`), so it must read the observable state that shows the change (a model's
/// property, a `Defaults.BoundValue`); a condition that reads only a store never
/// learns of a change and times out.
/// - Parameters:
///   - timeout: how long to wait at most; it only bounds a failure. The default is 60 s, generous for
///     loaded machines.
///   - condition: true when what the test waits for has been delivered.
/// - Throws: ``ObservationWaitError/timedOut(after:)`` when `condition` did not hold within `timeout`;
///   `CancellationError` when the waiting task is cancelled.
@MainActor
public func waitUntilObserved(timeout: Duration = .seconds(60), _ condition: @MainActor () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        let (changed, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let holds = withObservationTracking {
            condition()
        } onChange: {
            // NB: called as the state is about to change, on the thread that changes it; the condition
            // is asked again on the main actor, after the change.
            continuation.yield()
            continuation.finish()
        }
        if holds { return }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw ObservationWaitError.timedOut(after: timeout) }
        do {
            try await ObservationWaitError.within(remaining) {
                for await _ in changed { break }
            }
        } catch ObservationWaitError.timedOut {
            throw ObservationWaitError.timedOut(after: timeout)
        }
    }
}
