// prefs-soak: a soak test of LayeredDefaults across processes.
//
//   swift run -c release prefs-soak --seconds 60 --processes 3
//
// Several child processes (this executable again, in child mode) run mixed reads, writes, removals,
// two-key transactions and atomic counter updates against one suite in a temporary root. Each child
// owns its keys and acknowledges every committed operation on its standard output; the counters are
// shared. Afterwards the parent reads the suite through a fresh connection and checks it against
// every acknowledged operation: each child's keys exactly as its last acknowledged operation left
// them, each counter exactly the number of acknowledged increments. It prints operations per second
// and the number lost, and exits non-zero if anything was lost, unexpected, stale or failed.
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
