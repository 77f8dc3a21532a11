import Foundation

/// A parser of untrusted input and the invariants every input must keep.
///
/// The one check that both the libFuzzer binaries (`scripts/fuzz.sh`, through `Fuzz/Entry.swift`) and
/// `swift test` (``FuzzCorpusTests``, over every committed input under `Fuzz/`) run. A check returns when
/// every invariant held; a crash, a trap or a hang inside the parser is a finding as well.
struct FuzzTarget: Sendable {
    /// The target's name: its folder under `Fuzz/`, and what `scripts/fuzz.sh` is given.
    let name: String
    /// Runs one input through the parser and checks what it returned.
    let check: @Sendable (Data) throws(FuzzViolation) -> Void

    /// Every target, in the order `scripts/fuzz.sh all` runs them.
    static let all: [FuzzTarget] = [
        .propertyListText, .argumentDomain, .valueParser, .binaryPropertyList, .xmlPropertyList, .prefsImport, .backupRestore,
    ]

    /// The target called `name`, if any.
    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// An invariant that an input broke.
///
/// It names the invariant, never the values: they came from the input, which is kept as a file.
struct FuzzViolation: Error, CustomStringConvertible {
    /// What should have held.
    let invariant: String

    var description: String { "invariant broken: \(invariant)" }
}

/// Throws ``FuzzViolation`` naming `invariant` unless `condition` holds.
func expect(_ condition: Bool, _ invariant: @autoclosure () -> String) throws(FuzzViolation) {
    guard condition else { throw FuzzViolation(invariant: invariant()) }
}

/// How the targets read their bytes.
enum FuzzInput {
    /// The input as UTF-8 text, a byte that is not UTF-8 read as U+FFFD.
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The input as a list of arguments separated by NUL bytes (no argument can hold one), each read
    /// as ``text(_:)``.
    static func arguments(_ data: Data) -> [String] {
        data.split(separator: 0, omittingEmptySubsequences: false).map { text(Data($0)) }
    }
}
