import Foundation
import LayeredDefaults

/// What a child tells its parent, one line per committed operation, and the values both derive from it.
///
/// ```
/// S <key> <seq>          key now holds value(child, seq)
/// D <key>                key removed
/// T <key> <key> <seq>    both keys now hold value(child, seq), in one transaction
/// U <counter> <value>    the shared counter was incremented (atomically) to value
/// E <error>              an operation failed (and must have changed nothing)
/// DONE <reads> <stale>   the child finished: reads done, and reads of its own keys that were stale
/// ```
enum SoakProtocol {
    /// The name of key `index` of child `child`.
    static func key(child: Int, index: Int) -> String { "p\(child)-k\(index)" }

    /// The name of shared counter `index`.
    static func counter(_ index: Int) -> String { "shared-\(index)" }

    /// The value child `child` writes with sequence number `seq`: every type, sizes up to a few KiB.
    static func value(child: Int, seq: Int) -> PreferenceValue {
        switch seq % 6 {
        case 0: .string("p\(child)-s\(seq)-" + String(repeating: "x", count: seq % 700))
        case 1: .integer(seq &* 2_654_435_761)
        case 2: .data(Data(repeating: UInt8(truncatingIfNeeded: seq), count: seq % 3000))
        case 3: .array([.integer(seq), .string("s\(seq)"), .double(Double(seq) / 7), .bool(seq % 2 == 0)])
        case 4: .dictionary(["seq": .integer(seq), "child": .integer(child), "when": .date(Date(timeIntervalSinceReferenceDate: Double(seq)))])
        default: .double(Double(seq) * 0.125)
        }
    }
}
