import Foundation

// The libFuzzer entry point of every fuzz target, built by scripts/fuzz.sh with the harness in
// Tests/FuzzRegressionTests/Harness (the same check `swift test` runs over the committed inputs).

/// The target this binary fuzzes, named by the binary's file name: `scripts/fuzz.sh` links one name a
/// target, so `.build/fuzz/<target> <input>` reproduces a finding.
private let fuzzed: FuzzTarget = {
    let name = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
    guard let target = FuzzTarget.named(name) else {
        fatalError("no fuzz target is called \(name); the targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
    }
    return target
}()

/// Runs one input through the target's check and traps on a broken invariant, which libFuzzer
/// reports as a crash and keeps the input of.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    do {
        try fuzzed.check(data)
    } catch {
        fatalError("\(fuzzed.name): \(error)")
    }
    return 0
}
