import Foundation
import LayeredDefaults

/// `prefs export <domain> <file|->`: writes a domain as an XML or binary property list, or as JSON.
enum Export: Command {
    static let declaration = CommandDeclaration(
        synopsis: "export <domain> <file|-> [--format json|xml|binary]", operandKinds: [.domain, .file],
        options: [.format],
        help: """
            Writes every key of <domain> to <file> (or standard output for -) as a property list or as JSON.

            The format is --format's, else JSON for a <file> whose name ends in .json, else an XML property
            list (standard output and every other name). macOS `defaults export` writes XML to standard
            output but a binary property list to a file: --format binary writes what it does. `prefs import`
            reads each back, and `defaults import` the property lists. A binary property list needs a file.
            A property list keeps every type (booleans, integers and reals distinct), but XML keeps whole-second
            dates and no negative zero: when a value would not survive, nothing is written and the keys are
            named (exit status 2); use --format binary or json, which are lossless for every value.
            JSON is one object, keys sorted, mapping each key to its
            value's tagged JSON, an object with exactly one member, named after the type:
              {"string":"a"} {"integer":42} (digits only) {"double":0.5} ("nan", "inf", "-inf" for the
              non-finite ones) {"bool":true} {"date":786000000.25} (seconds since 2001-01-01 00:00:00 UTC)
              {"data":"AAEC"} (canonical base64) {"array":[...]} {"dictionary":{"key":{...}}}
            e.g. {"fontSize":{"integer":12},"theme":{"string":"dark"}}. `prefs import` reads it back.
            The file is replaced atomically; it is created readable by its owner only (mode 0600), so no
            other user can read it, not even while it is written.
            Exit status: 0; 1 when the domain does not exist (an empty domain exports as an empty dictionary); 2 for a value
            the format cannot hold (nothing is written); 3 when the store cannot be read or the file cannot
            be written.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, destination) = (try Context.domainName(operands[0]), operands[1])
        let format = try DocumentFormat(option: invocation.value(of: .format), destination: destination)
        if format == .binary, destination == "-" {
            throw PrefsError.usage("a binary property list cannot go to standard output; give a file")
        }
        // NB: the file is replaced by a rename, which would put a regular file in the place of a symbolic
        // link, a named pipe or a device (`/dev/stdout`): refuse those instead, before reading anything.
        var status = stat()
        if destination != "-", lstat(destination, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw PrefsError.usage(
                "'\(destination)' exists and is not a regular file (a link, a pipe, a device or a directory); export to - for standard output; nothing was written"
            )
        }
        guard let values = try context.storedValues(of: domain) else { throw PrefsError.missingDomain(domain) }
        let document = try format.document(of: values, domain: domain)
        guard destination != "-" else { return context.console.writeOutput(String(decoding: document, as: UTF8.self)) }
        do {
            // NB: mode 0600: never readable by other users, not even while it is written.
            try FileActs.replace(destination, with: document, mode: 0o600)
        } catch {
            throw PrefsError.storage(
                "cannot write the export file '\(destination)' (\(reason(error))); the domain was not changed")
        }
    }

    /// The operating system's reason for a file error (a `POSIXError` or a `FileActs.Failure`), without
    /// the path or any content.
    static func reason(_ error: any Error) -> String {
        guard let code = (error as? FileActs.Failure)?.code ?? (error as? POSIXError)?.code.rawValue else {
            return "\(type(of: error))"
        }
        return String(cString: strerror(code))
    }
}
