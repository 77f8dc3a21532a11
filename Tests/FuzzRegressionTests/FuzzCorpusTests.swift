import Foundation
import Testing

/// Every input committed under `Fuzz/` (each target's seed corpus and the regressions its runs found)
/// keeps its target's invariants: the same check as the libFuzzer binaries of `scripts/fuzz.sh`.
@Suite struct FuzzCorpusTests {
    /// The repository's `Fuzz` folder.
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The folders of a target that hold inputs: its seeds, and the inputs its runs found.
    static let inputFolders = ["corpus", "regressions"]

    /// The inputs committed in `folder` of every target.
    static func committedInputs(in folder: String) -> [CommittedInput] {
        FuzzTarget.all.flatMap { target in
            let directory = fuzzFolder.appendingPathComponent(target.name).appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().map { CommittedInput(target: target.name, path: "\(target.name)/\(folder)/\($0)") }
        }
    }

    @Test(arguments: committedInputs(in: "corpus"))
    func everySeedKeepsItsTargetsInvariants(_ input: CommittedInput) throws {
        try input.check()
    }

    /// NB: until the property-list readers are replaced, several of these crash the test process (a
    /// segmentation fault inside Foundation, an arithmetic overflow): that is what they were kept for.
    @Test(arguments: committedInputs(in: "regressions"))
    func everyRegressionKeepsItsTargetsInvariants(_ input: CommittedInput) throws {
        try input.check()
    }

    /// Every target has a seed corpus, and every folder under `Fuzz/` is a target's, holding only
    /// input folders: an input put anywhere else would never be checked.
    @Test func everyTargetHasASeedCorpusAndNothingElseLiesAround() throws {
        for target in FuzzTarget.all {
            let corpus = Self.fuzzFolder.appendingPathComponent(target.name).appendingPathComponent("corpus")
            let seeds = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
            #expect(!seeds.isEmpty, "Fuzz/\(target.name)/corpus holds no seed")
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzFolder.path)
        for entry in entries where entry != "Entry.swift" {
            #expect(FuzzTarget.named(entry) != nil, "Fuzz/\(entry) is not a target's folder")
            let folders =
                (try? FileManager.default.contentsOfDirectory(atPath: Self.fuzzFolder.appendingPathComponent(entry).path)) ?? []
            for folder in folders {
                #expect(Self.inputFolders.contains(folder), "Fuzz/\(entry)/\(folder) is neither corpus nor regressions")
            }
        }
    }
}

/// One committed input: its target and its path under `Fuzz/`.
struct CommittedInput: Sendable, CustomTestStringConvertible {
    let target: String
    let path: String

    var testDescription: String { path }

    /// Runs the input through its target's check, recording a broken invariant as an issue.
    func check() throws {
        let target = try #require(FuzzTarget.named(self.target))
        let data = try Data(contentsOf: FuzzCorpusTests.fuzzFolder.appendingPathComponent(path))
        do {
            try target.check(data)
        } catch {
            Issue.record("Fuzz/\(path): \(error)")
        }
    }
}
