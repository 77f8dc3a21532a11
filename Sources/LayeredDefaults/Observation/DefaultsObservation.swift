import Synchronization

/// A running observation; it stops when cancelled or when this token is released.
public final class DefaultsObservation: Sendable {
    private let id: UInt64
    private let mark: CancellationMark

    init(id: UInt64, mark: CancellationMark) {
        self.id = id
        self.mark = mark
    }

    deinit { cancel() }

    /// Stops the observation, without waiting for anything: it marks the observation cancelled and
    /// removes it from the observation thread's list, each under a short lock, and returns.
    ///
    /// Every delivery checks the mark right before it calls the handler, on the delivery queue (a
    /// stream checks it right before each yield, on the evaluating thread), so what holds once this
    /// returns is:
    /// - No call of the handler starts (no value is yielded), except at most one whose delivery had
    ///   already passed its check when this was called from another thread (deliveries run one at a
    ///   time, so there is at most one such delivery). A call running now is not waited for.
    /// - Called from a handler (this observation's or another's: they share one serial queue), no call
    ///   of a callback observation starts afterwards at all.
    /// - An evaluation running now may still read the value once; what it reads is not delivered.
    ///
    /// It never waits for an evaluation, a delivery or a lock held elsewhere, so it may be called from
    /// anywhere: inside a transaction's body, a handler, the error handler, a stream's termination.
    /// Calling it again does nothing.
    public func cancel() {
        guard mark.cancel() else { return }
        ObservationCenter.shared.remove(id)
    }
}

/// Whether an observation was cancelled: set by ``DefaultsObservation/cancel()``, read by its
/// evaluation and its deliveries.
///
/// A separate object, not the token: the deliveries hold it, and holding the token would keep it
/// from being released (and so the observation from stopping).
final class CancellationMark: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// True once ``cancel()`` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks it cancelled.
    /// - Returns: true the first time, false when it was cancelled already.
    func cancel() -> Bool {
        !cancelled.exchange(true, ordering: .acquiringAndReleasing)
    }
}
