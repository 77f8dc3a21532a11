import Foundation
import LayeredDefaults

/// `prefs sync <domain> <folder> status|merge`: the state of a domain's sync through a folder, or one merge.
enum Sync: Command {
    static let declaration = CommandDeclaration(
        synopsis: "sync <domain> <folder> status|merge", operandKinds: [.domain, .directory, .choices(["status", "merge"])],
        options: [.device],
        help: """
            Shows the state of <domain>'s sync through <folder>, or merges the other devices' files once.

            <folder> is the folder a sync engine (Syncthing, Nextcloud, Dropbox, rsync) replicates; each
            device writes only <folder>/<domain>/<device>.json and merges the others' files. Only keys
            the domain's installed schema marks "syncs": true travel. This device's id is --device, else
            the one kept in the root (sync-device-id, made once).
            status prints this device's id and file, the keys it holds synced changes of, the other
            devices whose files are sound, and each file a merge would skip with why (never a value);
            it only reads: a device without an id yet is shown as such (--json leaves out device and
            file), and none is made.
            merge merges those files through the write path (the schema applies; a refused change is
            reported and not stored), writes this device's file, and prints the keys that changed.
            With --json, one object. Not with --system or --managed: only the user's own domain syncs.
            Exit status: 0; 2 on a bad argument; 3 when the folder or the domain cannot be read or written.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 3...3)
        let domain = try Context.domainName(operands[0])
        guard !operands[1].isEmpty else { throw PrefsError.usage("sync needs a folder") }
        guard ["status", "merge"].contains(operands[2]) else {
            throw PrefsError.usage("usage: prefs \(declaration.synopsis)")
        }
        let warnings = context.warnings
        let sync = Defaults.SyncFolder(folder: URL(fileURLWithPath: operands[1]), deviceID: invocation.value(of: .device))
        if operands[2] == "merge" {
            let report = try context.domain(domain).mergeSyncFolder(sync, errorHandler: { warnings.record($0) })
            if context.json {
                context.console.print(
                    try Output.jsonLine(
                        MergeOutput(
                            changed: report.changedKeys, refused: report.refusedKeys, devices: report.mergedDevices,
                            skipped: report.skippedFiles.map(\.description))))
            } else {
                for key in report.changedKeys { context.console.print(Output.escapingControlCharacters(key)) }
            }
            return
        }
        // A reading verb creates nothing: a device id not made yet is reported as such.
        let status = try context.domain(domain).syncStatus(through: sync, errorHandler: { warnings.record($0) })
        if context.json {
            context.console.print(
                try Output.jsonLine(
                    StatusOutput(
                        device: status.deviceID, file: status.filePath, keys: status.syncedKeys, devices: status.devices,
                        skipped: status.skippedFiles.map(\.description))))
            return
        }
        // NB: keys, devices and files come from files other devices wrote: no control character of theirs
        // reaches the terminal.
        let escaped = Output.escapingControlCharacters
        context.console.print(
            "device: \(status.deviceID.map { escaped($0, []) } ?? "none yet (made by the first merge or synced write)")")
        context.console.print("file: \(status.filePath.map { escaped($0, []) } ?? "none yet")")
        context.console.print("keys: \(status.syncedKeys.map { escaped($0, []) }.joined(separator: " "))")
        context.console.print("devices: \(status.devices.map { escaped($0, []) }.joined(separator: " "))")
        for skipped in status.skippedFiles { context.console.print("skipped: \(escaped(skipped.description, []))") }
    }

    /// `merge --json`'s object.
    private struct MergeOutput: Encodable {
        let changed: [String]
        let refused: [String]
        let devices: [String]
        let skipped: [String]
    }

    /// `status --json`'s object.
    private struct StatusOutput: Encodable {
        let device: String?
        let file: String?
        let keys: [String]
        let devices: [String]
        let skipped: [String]
    }
}
