import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility

/// `prefs describe <domain> <key>`: what the schema says of a key, and whether it is set or forced.
enum Describe: Command {
    static let declaration = CommandDeclaration(
        synopsis: "describe <domain> <key>", operandKinds: [.domain, .schemaKey],
        help: """
            Describes <key> of <domain>'s schema: its summary, type, what it accepts, its default, whether it is set and forced.

            One `name: value` line each: key, summary, description (when the schema has one), type, accepts
            (its choices, range or maximum length, its content, or `any <type>`), default (- for none; computed
            by the app when read), set (yes when <domain> holds a value for it) and forced (yes when the
            managed domain forces it); a description of several lines goes on over lines indented by two
            spaces, and a control character prints escaped (\\U001b). The value itself is not printed: `prefs
            read` prints it. With --json: the key as the schema file holds it (docs/SCHEMA.md), with "set" and
            "forced" members.
            Exit status: 0; 1 when the domain has no schema or the schema no such key; 3 when its schema
            file is malformed (it is not used) or the domain cannot be read.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        guard let entry = try context.requiredSchema(of: domain).entry(named: key) else {
            throw PrefsError.notFound("The schema of domain \(domain) has no key '\(key)'; run 'prefs keys \(domain)'")
        }
        let isSet = try context.storedValues(of: domain, reading: key)?[key] != nil
        let isForced = try forced(key, in: domain, context: context)
        if context.json {
            struct Description: Encodable {
                let key: PreferenceSchema.Entry
                let set: Bool
                let forced: Bool
            }
            return context.console.print(try Output.jsonLine(Description(key: entry, set: isSet, forced: isForced)))
        }
        var lines = [Output.field("key", entry.name), Output.field("summary", entry.summary)]
        if let description = entry.description { lines.append(Output.field("description", description)) }
        lines += [
            "type: \(entry.type?.rawValue ?? "any")", Output.field("accepts", Output.singleLine(entry.acceptedPhrase)),
            Output.field(
                "default",
                entry.defaultIsComputed ? "computed by the app when read" : entry.defaultValue.map(Output.line(of:)) ?? "-"),
            "set: \(isSet ? "yes" : "no")",
            "forced: \(isForced ? "yes" : "no")",
        ]
        context.console.print(lines.joined(separator: "\n"))
    }

    /// True when the managed domain of the system directories forces `key` of `domain` (it opens their
    /// managed files, when they exist, and creates nothing, whether or not `domain` has a file).
    private static func forced(_ key: String, in domain: String, context: Context) throws -> Bool {
        try context.appStore(domain).objectIsForced(forKey: key)
    }
}
