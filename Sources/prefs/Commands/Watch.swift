import Foundation
import LayeredDefaults

/// `prefs watch <domain> [<key>...]`: prints the changes of a domain as it sees them, until interrupted.
///
/// It looks at the domain's file after each change of it (a `FileWatch`, waiting as observations do;
/// every ``intervalMilliseconds`` where the directory cannot be watched) and prints
/// each key whose value differs from the last look: so what it prints is the sequence of committed
/// states it saw, not every write. It waits
/// for a domain that does not exist yet, and follows a file deleted and created again, or replaced
/// (`mv` over it). It creates nothing, in the user's root or in a system-wide layer.
enum Watch: Command {
    static let declaration = CommandDeclaration(
        synopsis: "watch <domain> [<key>...]", operandKinds: [.domain, .keys], aliases: ["monitor"],
        help: """
            Prints each change of <domain> (of its <key>s only, when given) it sees, until interrupted.

            Sees every writer: this machine's other processes as well as prefs itself. After each commit
            (the domain's directory's events, and every 100 ms while another process's commit may still
            be publishing, as on a slow disk; every 100 ms where the directory cannot be watched, as on a
            file system without inotify or a root not created yet) it looks at the domain and prints one
            line for each key whose value differs from its last look:
            `<key> = <value>` (the value as property-list text on one line) or, when it is removed, the
            value it reads as then (the one `prefs read` prints, written as above), marked as not set:
            `<key> removed: not set, reads <value> (its schema's default)` (or the layer that gives it,
            as `(the system domain's value)`), and `<key> removed` when no layer gives it a value;
            with --json, one object a line: {"key":"theme","value":{"string":"dark"}}, "value":null when
            removed, with "default":<value> the value it reads as then, if any.
            So it prints the committed states it sees, not every write: of several writes between two looks
            only each key's last value is printed, and a key added and removed again between two looks
            prints nothing. Values present when it starts are not printed.
            A domain that does not exist yet is waited for (its keys then print as they appear); a domain
            whose file is deleted prints its keys as removed, and is followed when it is created again or
            another file is put in its place. Nothing is created, not even in --system or --managed.
            Ends with exit status 0 on SIGINT (Ctrl-C); 3 when the domain cannot be read.
            """)

    /// How often the domain is looked at where its directory cannot be watched, in milliseconds: a
    /// change is then printed within this time.
    static let intervalMilliseconds = 100

    /// One change, as `--json` prints it.
    private struct Change: Encodable {
        let key: String
        let value: PreferenceValue?
        /// After a removal, the value the key reads as now, if a layer below the domain gives one.
        let inForce: PreferenceValue?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(value, forKey: .value)  // NB: null when removed, never left out.
            try container.encodeIfPresent(inForce, forKey: .default)
        }

        private enum CodingKeys: String, CodingKey { case key, value, `default` }
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...Int.max)
        let domain = try Context.domainName(operands[0])
        let keys = Set(operands.dropFirst())

        // NB: SIGINT is taken from its default action before the first look, so an interrupt always ends
        // the watch between two looks, never half-way through a line.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        // NB: made before the first look, so no commit falls between the two.
        let waiter = FileWatch(
            database: try context.domain(domain).file!.path, pollInterval: .milliseconds(intervalMilliseconds))
        interrupt.setEventHandler(handler: waiter.stop)
        interrupt.resume()
        defer { interrupt.cancel() }

        var looker = Looker(domain: domain, context: context)
        var seen = try looker.values()
        while waiter.nextLook(anotherProcessMayBeCommitting: { looker.anotherProcessMayBeCommitting }) {
            let now = try looker.values()
            for key in Set(seen.keys).union(now.keys).sorted() where keys.isEmpty || keys.contains(key) {
                if let old = seen[key], let new = now[key], old.isIdentical(to: new) { continue }
                // NB: a removed key is read as the app reads it now, from the layers below the domain.
                let inForce = now[key] == nil ? try context.valueInForce(of: key, in: domain) : nil
                context.console.print(try line(key: key, value: now[key], inForce: inForce, json: context.json))
            }
            seen = now
            // NB: output that cannot be written (a reader gone, as in `prefs watch d | head -1`) ends the
            // watch; `Prefs.run` then gives the status of output cut short.
            if context.console.outputFailure() != nil { return }
        }
    }

    /// Reads the watched domain at each look: through a store while its file is the one at the path,
    /// opening the file there again once it was deleted or replaced.
    private struct Looker {
        let domain: String
        let context: Context
        private var defaults: Defaults?

        init(domain: String, context: Context) {
            self.domain = domain
            self.context = context
        }

        /// True when another process may be in the middle of a commit to the domain's file.
        var anotherProcessMayBeCommitting: Bool { defaults?.anotherProcessMayBeCommitting ?? false }

        /// The values stored in the domain now; none while it has no file.
        /// - Throws: the library's error when the file there cannot be read.
        mutating func values() throws -> [String: PreferenceValue] {
            // NB: a store whose file was deleted or replaced reads a file nobody writes any more: let it go
            // (it then closes without touching the names its file had) and open what is there now.
            if let open = defaults, !open.persistentFileIsCurrent { defaults = nil }
            if defaults == nil { defaults = try context.existingDefaults(domain) }
            // The persistent domain alone: what `watch` prints is the domain's own values.
            return try defaults?.persistentValues() ?? [:]
        }
    }

    /// The line of a change of `key` to `value` (nil: removed, the key then reading as `inForce`, if any).
    private static func line(
        key: String, value: PreferenceValue?, inForce: Context.ValueInForce?, json: Bool
    ) throws -> String {
        if json { return try Output.jsonLine(Change(key: key, value: value, inForce: inForce?.value)) }
        // A key is printed as property-list text prints a string: bare when it is one word, else quoted.
        let name = PreferenceValue.string(key).description
        if let value { return "\(name) = \(Output.singleLine(value.description))" }
        guard let inForce else { return "\(name) removed" }
        return
            "\(name) removed: not set, reads \(Output.singleLine(inForce.value.description)) (\(inForce.source(namingFile: false)))"
    }
}
