import Foundation
import LayeredDefaults

/// `prefs install-schema <file|->`: installs a schema file, as an app does with `Defaults.Domain.installSchema`.
enum InstallSchema: Command {
    static let declaration = CommandDeclaration(
        synopsis: "install-schema <file|->", operandKinds: [.file],
        help: """
            Installs the schema in <file> (- for standard input) for its domain: <root>/schemas/<domain>.json, or with --system every user's.

            The file is a schema in the format of docs/SCHEMA.md (what `Domain.installSchema` writes), read
            strictly: a malformed one is refused and nothing is installed. Its "suite" member names the domain.
            With --system it goes to <dir>/layered-defaults/schemas (mode 0644), <dir> the first of
            $XDG_CONFIG_DIRS (else /etc/xdg). A schema of the same or a higher version replaces the installed
            one; one of a lower version leaves a newer one in place. Prints what was done: installed,
            replaced version <n>, unchanged, or kept the installed version <n>.
            Exit status: 0; 2 for a malformed schema file or --managed; 3 when it cannot be written or read.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...1)
        guard context.layer != .managed else {
            throw PrefsError.usage("install-schema installs for the user, or with --system for every user; not with --managed")
        }
        let source = operands[0]
        let path = source == "-" ? "standard input" : source
        let data: Data
        do {
            // NB: a file (even /dev/zero) is read no further than a schema may be long.
            data =
                source == "-"
                ? try context.console.readInput(PreferenceSchema.maximumFileSize)
                : try Descriptor.readAll(atPath: source, limit: PreferenceSchema.maximumFileSize)
        } catch {
            throw PrefsError.usage("cannot read '\(path)' (\(Export.reason(error))); nothing was installed")
        }
        let schema: PreferenceSchema
        do {
            schema = try PreferenceSchema(jsonData: data, path: path)
        } catch .malformedSchema(_, let reason) {
            // NB: the file being installed is not one an app installed: "reinstall it from its app" would be wrong.
            throw PrefsError.usage("The schema file '\(path)' is malformed (\(reason)); nothing was installed")
        } catch {
            throw PrefsError.usage(PrefsError.domainWording(of: error))
        }
        switch try context.domain(schema.suiteName).installSchema(schema) {
        case .installed: context.console.print("installed")
        case .replaced(let previous): context.console.print("replaced version \(previous)")
        case .unchanged: context.console.print("unchanged")
        case .keptNewer(let installed): context.console.print("kept the installed version \(installed)")
        case .inMemory: context.console.print("unchanged")
        }
    }

}
