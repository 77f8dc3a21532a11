import Foundation

/// A hybrid logical clock's reading, stamped on each synced change of a key: the wall clock in
/// milliseconds, a counter that orders changes within one millisecond (or while the wall clock is
/// behind a reading already seen), and the device that made the change.
///
/// Readings are ordered by wall time, then counter, then device id (by its UTF-8 bytes): a total order,
/// so every device picks the same winner for a key whatever order the files arrive in.
struct SyncClock: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970, as the making device's wall clock, or a later reading it had seen, said.
    let wall: Int64
    /// Orders readings of one `wall`.
    let counter: Int64
    /// The device that made the change.
    let device: String

    static func < (lhs: SyncClock, rhs: SyncClock) -> Bool {
        if lhs.wall != rhs.wall { return lhs.wall < rhs.wall }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.device.utf8.lexicographicallyPrecedes(rhs.device.utf8)
    }

    /// The reading of a new local change on `device`: after `latest` (the latest reading this domain holds,
    /// its own or merged), whatever the wall clock says, so a change made here always wins over every
    /// change already seen.
    ///
    /// NB: never past the bounds every reader checks (``SyncFile/maximumWall``, ``SyncFile/maximumCounter``):
    /// a file holding a reading at them (a hostile one) must not make this device's own file unreadable to
    /// the others for good. At both bounds the reading stays there, and the device id orders it.
    static func tick(after latest: (wall: Int64, counter: Int64)?, device: String, now: Date = Date()) -> SyncClock {
        let physical = min(Int64((now.timeIntervalSince1970 * 1000).rounded(.down)), SyncFile.maximumWall)
        guard let latest, latest.wall >= physical else { return SyncClock(wall: physical, counter: 0, device: device) }
        if latest.counter < SyncFile.maximumCounter {
            return SyncClock(wall: latest.wall, counter: latest.counter + 1, device: device)
        }
        if latest.wall < SyncFile.maximumWall { return SyncClock(wall: latest.wall + 1, counter: 0, device: device) }
        return SyncClock(wall: latest.wall, counter: latest.counter, device: device)
    }
}
