import LayeredDefaults

/// `prefs history <domain> [<key>]`: who changed a key, when, and what it held before.
enum History: Command {
    static let declaration = CommandDeclaration(
        synopsis: "history <domain> [<key>]", operandKinds: [.domain, .key],
        help: """
            Lists the changes of <key> in <domain> (or of every key), the latest first, with the value before each.

            A domain keeps history when its app turns it on (Defaults.Configuration.history); `prefs` writes to
            such a domain (write, delete, revert, ...) are recorded too, with the standard bound (50 entries and
            64 KiB a key). With <key>, each line is: the step (what `prefs revert --to` takes), the time (UTC),
            the value before the change (`(unset)` when there was none), the user (and id), the process and its
            executable, tab-separated; without <key>, the key instead of the step. Values print as property-list
            text on one line, a string quoted unless it is one word (so a string "(unset)" prints quoted,
            never as `(unset)`). With --json: one JSON array of objects (key, step, date, previous as
            tagged JSON, absent when unset, and writer: processName, executablePath, userID, userName).
            Exit status: 0 (also when nothing is kept); 1 when the domain does not exist.
            """)

    /// One entry, as `--json` prints it.
    private struct Line: Encodable {
        let key: String
        let step: Int?
        let date: String
        let previous: PreferenceValue?
        let writer: Defaults.HistoryWriter
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...2)
        let domain = try Context.domainName(operands[0])
        guard let defaults = try context.existingDefaults(domain) else { throw PrefsError.missingDomain(domain) }
        let key = operands.count == 2 ? operands[1] : nil
        let entries = try key.map(defaults.history(forKey:)) ?? defaults.history()
        let lines = entries.enumerated().map { index, entry in
            Line(
                key: entry.key, step: key == nil ? nil : index + 1, date: Output.line(of: .date(entry.date)),
                previous: entry.previousValue, writer: entry.writer)
        }
        if context.json { return context.console.print(try Output.jsonLine(lines)) }
        for line in lines {
            // NB: property-list text, not `read`'s raw string: no string prints as the bare `(unset)`.
            let previous = line.previous.map { Output.singleLine($0.description) } ?? "(unset)"
            let writer = line.writer
            let fields = [
                line.step.map(String.init) ?? Output.escapingControlCharacters(line.key), line.date, previous,
                "\(Output.escapingControlCharacters(writer.userName)) (\(writer.userID))",
                Output.escapingControlCharacters(writer.processName), Output.escapingControlCharacters(writer.executablePath),
            ]
            context.console.print(fields.joined(separator: "\t"))
        }
    }
}
