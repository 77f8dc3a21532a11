import Foundation
import LayeredDefaults

extension Defaults {
    /// Posted to `NotificationCenter.default` (object: the instance) after every change made through an
    /// instance created with `Configuration.postsChangeNotifications` on: a write, a removal, a domain
    /// replaced or removed, a registration, a volatile domain or suite change. Off by default, which is
    /// where it differs from `UserDefaults.didChangeNotification` (posted by Foundation on Darwin after
    /// every change, on Linux only for whole-domain changes); the core's observation needs no opt-in and
    /// also sees other processes' writes.
    public static let didChangeNotification = changeNotificationName
}
