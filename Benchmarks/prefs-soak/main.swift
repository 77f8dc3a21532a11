// prefs-soak: a soak test of LayeredDefaults across processes.
//
//   swift run -c release prefs-soak --seconds 60 --processes 3
//
// Several child processes (this executable again, in child mode) run mixed reads, writes, removals,
// two-key transactions, atomic counter updates and writes that change nothing (a key rewritten with its
// value, a missing key removed, an empty transaction, a migration already applied) against one suite in
// a temporary root. Each child owns its keys and acknowledges every committed operation on its standard
// output; the counters are shared. Each child also counts its progress (1, 2, 3, ...) in a key of its
// own, publishing each value once committed on a board all children map (SoakBoard), and the others
// read it: a read older than a value published before it began, or than one the reader had already
// read, is stale. Afterwards the parent reads the suite through a fresh connection and checks it
// against every acknowledged operation: each child's keys exactly as its last acknowledged operation
// left them, each counter exactly the number of acknowledged increments. It prints operations per
// second, `lost: N` and `stale: N`, and exits non-zero if anything was lost, unexpected, stale or failed.
import Foundation

let options: SoakOptions
do {
    options = try SoakOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("prefs-soak: \(error)\n\n\(SoakOptions.usage)\n".utf8))
    exit(2)
}
if let child = options.child {
    exit(SoakChild(index: child, options: options).run())
} else {
    exit(SoakParent(options: options).run())
}
