import LayeredDefaults

/// Collects the errors a store reports to its error handler instead of printing them:
/// `configuration: .init(..., errorHandler: errors.record)`.
public final class ReportedErrors: Sendable {
    private let collected = Lock<[DefaultsError]>([])

    /// A collector with nothing reported yet.
    public init() {}

    /// Every error reported so far, oldest first.
    public var all: [DefaultsError] { collected.withLock { $0 } }

    /// The error handler to configure a store with.
    public func record(_ error: DefaultsError) { collected.withLock { $0.append(error) } }
}
