import Foundation
import LayeredDefaults

/// `prefs watch <domain> [<key>...]`: prints each change of a domain as it happens, until interrupted.
enum Watch: Command {
    static let verb = "watch"
    static let synopsis = "watch <domain> [<key>...]"
    static let operandKinds: [CompletionKind] = [.domain]
    static let summary =
        "Prints one line per change of <domain> (of its <key>s only, when given) as it happens, until interrupted."
    static let details = """
        Sees every writer: this machine's other processes as well as prefs itself. Each line is
        `<key> = <value>` (the value as property-list text on one line) or `<key> removed`; with --json,
        one object a line: {"key":"theme","value":{"string":"dark"}}, "value":null when removed.
        Changes in quick succession may be seen together: the last value of each key is always printed.
        Ends with exit status 0 on SIGINT (Ctrl-C).
        Exit status: 0 when interrupted; 1 when the domain does not exist; 3 when it cannot be read.
        """

    /// One change, as `--json` prints it.
    private struct Change: Encodable {
        let key: String
        let value: PreferenceValue?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(value, forKey: .value)  // NB: null when removed, never left out.
        }

        private enum CodingKeys: String, CodingKey { case key, value }
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...Int.max)
        let domain = try Context.domainName(operands[0])
        let keys = Set(operands.dropFirst())
        guard let defaults = try context.existingDefaults(domain) else { throw PrefsError.missingDomain(domain) }

        // NB: SIGINT is taken from its default action before the observation starts, so an interrupt
        // always ends the watch through `stop`, never half-way through a line.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let stop = DispatchSemaphore(value: 0)
        interrupt.setEventHandler { stop.signal() }
        interrupt.resume()
        defer { interrupt.cancel() }

        // NB: the baseline is read before the observation starts and compared again right after it, so a
        // change between the two is printed, not taken for the starting state.
        let seen = Lock(try defaults.persistentValues())
        let failure = Lock<(any Error)?>(nil)
        let report: @Sendable () -> Void = {
            do {
                let now = try defaults.persistentValues()
                let before = seen.withLock { seen in
                    defer { seen = now }
                    return seen
                }
                for key in Set(before.keys).union(now.keys).sorted() where keys.isEmpty || keys.contains(key) {
                    if let old = before[key], let new = now[key], old.isIdentical(to: new) { continue }
                    context.console.print(try line(key: key, value: now[key], json: context.json))
                }
                // NB: output that cannot be written (a reader gone, as in `prefs watch d | head -1`) ends the
                // watch; `Prefs.run` then gives the status of output cut short.
                if context.console.outputFailure() != nil { stop.signal() }
            } catch {
                failure.withLock { $0 = error }
                stop.signal()
            }
        }
        let changes = defaults.changes(initial: false)  // the first report() shows the current values
        let watcher = Task.detached {
            report()
            for await _ in changes { report() }
        }
        stop.wait()
        watcher.cancel()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// The line of a change of `key` to `value` (nil: removed).
    private static func line(key: String, value: PreferenceValue?, json: Bool) throws -> String {
        if json { return try Output.jsonLine(Change(key: key, value: value)) }
        guard let value else { return "\(PropertyListText.quoted(key)) removed" }
        let text = PropertyListText.format(value).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return "\(PropertyListText.quoted(key)) = \(text.joined(separator: " "))"
    }
}
