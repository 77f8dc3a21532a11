import Foundation
import LayeredDefaults

/// `prefs export <domain> <file|->`: writes a domain as an XML or binary property list, or as JSON.
enum Export: Command {
    static let verb = "export"
    static let synopsis = "export <domain> <file|-> [--format json|xml|binary]"
    static let operandKinds: [CompletionKind] = [.domain, .file]
    static let summary =
        "Writes every key of <domain> to <file> (or standard output for -) as a property list, as macOS `defaults export` does, or as JSON."
    static let options: [OptionDeclaration] = [
        .valued(
            "--format", "json|xml|binary",
            "the format; else JSON for a <file> named .json, else (standard output and any other name) an XML property list",
            completion: .choices(DocumentFormat.allCases.map(\.rawValue)))
    ]
    static let details = """
        The format is --format's, else JSON for a <file> whose name ends in .json, else an XML property
        list (standard output and every other name, as macOS `defaults export` writes). `prefs import`
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
        """

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, destination) = (try Context.domainName(operands[0]), operands[1])
        let format = try DocumentFormat(option: invocation.values["--format"], destination: destination)
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
            try replace(URL(fileURLWithPath: destination), with: document)
        } catch {
            throw PrefsError.storage(
                "cannot write the export file '\(destination)' (\(reason(error))); the domain was not changed")
        }
    }

    /// Replaces `file` with `data` atomically, never readable by others: the data goes to a new file
    /// beside it, created with mode 0600 (`O_CREAT | O_EXCL`) whatever the umask, and flushed to disk, then
    /// renamed over `file`.
    /// - Throws: the `POSIXError` of the step that failed; the new file is removed and `file` is unchanged.
    private static func replace(_ file: URL, with data: Data) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
            .path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError.current }
        var failure: (any Error)?
        do {
            // NB: the umask may have taken bits off 0600 (0400 under umask 0277, none under 0777); this
            // only gives the owner's back, so the file is never readable by others at any moment.
            if fchmod(descriptor, 0o600) != 0 { throw POSIXError.current }
            try Descriptor.writeAll(data, to: descriptor)
            if fsync(descriptor) != 0 { throw POSIXError.current }
        } catch {
            failure = error
        }
        close(descriptor)
        if failure == nil, rename(temporary, file.path) != 0 { failure = POSIXError.current }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// The operating system's reason for a file error (a `POSIXError`), without the path or any content.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? POSIXError else { return "\(type(of: error))" }
        return String(cString: strerror(error.code.rawValue))
    }
}
