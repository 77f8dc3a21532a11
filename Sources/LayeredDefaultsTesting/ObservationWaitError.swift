/// Why a wait for an observation (``ObservedValues``, ``waitUntilObserved(timeout:_:)``) ended without
/// what it waited for. Its message never contains an observed value.
public enum ObservationWaitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing delivered what was awaited within `after`: the change was never made, or (for
    /// ``waitUntilObserved(timeout:_:)``) the condition reads no `@Observable` state that could tell it
    /// of the change.
    case timedOut(after: Duration)
    /// The observed sequence ended (its stream was finished or its observation cancelled) before it
    /// delivered what was awaited; `delivered` elements came.
    case sequenceEnded(delivered: Int)

    /// What happened and what to check next; never a value.
    public var description: String {
        switch self {
        case .timedOut(let timeout):
            "Timed out after \(timeout) waiting for an observation to deliver: check that the code under test makes the change, and that the condition reads the @Observable state (or the sequence) that shows it"
        case .sequenceEnded(let delivered):
            "The observed sequence ended after \(delivered) elements without delivering what was awaited: check that its observation is kept alive until the wait ends"
        }
    }

    /// What `operation` returns, or ``timedOut(after:)`` when it has not returned within `timeout`
    /// (it is cancelled then). The timeout only bounds a failure: nothing waits for it otherwise.
    static func within<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            // NB: the first child to finish decides; the other is cancelled, and its CancellationError
            // is dropped with the group.
            defer { group.cancelAll() }
            guard let result = try await group.next() ?? nil else { throw ObservationWaitError.timedOut(after: timeout) }
            return result
        }
    }
}
