import Foundation
import LayeredDefaults

/// What a child tells its parent, one line per committed operation, and the values both derive from it.
///
/// ```
/// S <key> <seq>          key now holds value(child, seq)
/// D <key>                key removed
/// T <key> <key> <seq>    both keys now hold value(child, seq), in one transaction
/// U <counter> <value>    the shared counter was incremented (atomically) to value
/// P <n>                  the child's progress key now holds n (and n is published on the ``SoakBoard``)
/// N <kind>               a write that changes nothing committed (kind: same, absent, empty or migrate)
/// M <ran>                the child ran the setup migration (1), or found it already applied (0)
/// X <child> <behind>     a read of child's progress key was stale: `behind` commits older than the
///                        value that child had acknowledged before the read began, or that this child
///                        had already read
/// E <error>              an operation failed (and must have changed nothing)
/// DONE <reads> <stale> <checks>
///                        the child finished: reads done, reads of its own keys that were stale, and
///                        reads of other children's progress keys that were checked
/// ```
enum SoakProtocol {
    /// The name of key `index` of child `child`.
    static func key(child: Int, index: Int) -> String { "p\(child)-k\(index)" }

    /// The name of child `child`'s progress key: 1, 2, 3, ... written by that child alone.
    static func progressKey(child: Int) -> String { "p\(child)-progress" }

    /// A key child `child` never writes, only removes (a removal that changes nothing).
    static func absentKey(child: Int) -> String { "p\(child)-absent" }

    /// The migration every child runs on start (it changes no key); only the first may run it.
    static let migration = "soak-setup"

    /// The name of shared counter `index`.
    static func counter(_ index: Int) -> String { "shared-\(index)" }

    /// The value child `child` writes with sequence number `seq`: every type, sizes up to a few KiB.
    static func value(child: Int, seq: Int) -> PreferenceValue {
        switch seq % 6 {
        case 0: .string("p\(child)-s\(seq)-" + String(repeating: "x", count: seq % 700))
        case 1: .integer(seq &* 2_654_435_761)
        case 2: .data(Data(repeating: UInt8(truncatingIfNeeded: seq), count: seq % 3000))
        case 3: .array([.integer(seq), .string("s\(seq)"), .double(Double(seq) / 7), .bool(seq % 2 == 0)])
        case 4:
            .dictionary([
                "seq": .integer(seq), "child": .integer(child), "when": .date(Date(timeIntervalSinceReferenceDate: Double(seq))),
            ])
        default: .double(Double(seq) * 0.125)
        }
    }
}
