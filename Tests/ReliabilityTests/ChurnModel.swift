import LayeredDefaults

/// The state the acknowledged operations of a `defaults-fixture churn` child imply, kept from its lines:
/// `do <op> <key> [<length>]` announces an operation (`set`, `del` or `inc`), `ok [<n>]` acknowledges it.
struct ChurnModel {
    /// The values the acknowledged operations left.
    var values: [String: PreferenceValue] = [:]
    /// The operation announced and not acknowledged: the one in flight when the child died, if any.
    private(set) var inFlight: [Substring]?
    /// How many operations the current child acknowledged.
    private(set) var acknowledged = 0

    /// Starts following a new child: nothing in flight, none acknowledged; the values carry over.
    mutating func startChild() {
        inFlight = nil
        acknowledged = 0
    }

    /// Takes one line of the child's output.
    mutating func handle(_ line: String) {
        let words = line.split(separator: " ")
        if words.first == "do" {
            inFlight = words
        } else if words.first == "ok", let operation = inFlight {
            values = Self.applying(operation, result: words.dropFirst().first, to: values)
            inFlight = nil
            acknowledged += 1
        }
    }

    /// The key of the operation in flight, if any.
    var inFlightKey: String? { inFlight.map { String($0[2]) } }

    /// The values if the operation in flight did commit (nil: none is in flight).
    var withInFlight: [String: PreferenceValue]? {
        guard let operation = inFlight else { return nil }
        if operation[1] == "inc" {
            var copy = values
            copy[String(operation[2])] = .integer((values[String(operation[2])]?.integerValue ?? 0) + 1)
            return copy
        }
        return Self.applying(operation, result: nil, to: values)
    }

    private static func applying(
        _ operation: [Substring], result: Substring?, to values: [String: PreferenceValue]
    ) -> [String: PreferenceValue] {
        var values = values
        let key = String(operation[2])
        switch operation[1] {
        case "set": values[key] = .string("\(key):" + String(repeating: "x", count: Int(operation[3])!))
        case "del": values[key] = nil
        default: values[key] = .integer(Int(result!)!)
        }
        return values
    }
}
