import LayeredDefaults

/// A count that threads may increment at once.
public final class Counter: Sendable {
    /// A count of zero.
    public init() {}

    private let count = Lock(0)
    /// The count so far.
    public var value: Int { count.withLock { $0 } }
    /// Adds one.
    public func increment() { count.withLock { $0 += 1 } }
}
