import Foundation
import PackageTestSupport
import Testing
@testable import LayeredDefaults

/// Every way into a domain meets a bad file with a typed error naming it, and leaves it (and any file a
/// link points to) exactly as it was: same bytes, inode, mode and modification time, nothing created
/// next to it. (`LayeredDefaultsTests.BadInputTests` covers opening; this covers every entry point.)
@Suite(.timeLimit(.minutes(1)))
struct BadFileTests {
    enum EntryPoint: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case open, addSuite, persistentValues, persistentDomain, setPersistentDomain, removePersistentDomain,
             replacePersistentValues, persistentDomainNames
        var testDescription: String { rawValue }
    }

    @Test(arguments: BadFile.allCases, EntryPoint.allCases)
    func aBadFileIsRefusedAndLeftUntouched(kind: BadFile, entry: EntryPoint) throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("store")
            let reported = ReportedErrors()
            let other = try Defaults(suiteName: "other", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            other.set("mine", forKey: "k")
            let outside = try kind.make(suite: "bad", in: root)
            let file = databaseFile("bad", in: root)
            let before = FileSnapshot.take(root)?.ignoringIndexContent.children.filter { $0.key.hasPrefix("bad.") }
            let outsideBefore = outside.flatMap(FileSnapshot.take)

            var thrown: (any Error)?
            do {
                switch entry {
                case .open: _ = try Defaults(suiteName: "bad", configuration: .init(location: .directory(root), arguments: []))
                case .addSuite: other.addSuite(named: "bad")
                case .persistentValues: _ = try other.persistentValues(forName: "bad")
                case .persistentDomain: #expect(other.persistentDomain(forName: "bad") == nil)
                case .setPersistentDomain: other.setPersistentDomain(["k": "new"], forName: "bad")
                case .removePersistentDomain: other.removePersistentDomain(forName: "bad")
                case .replacePersistentValues: try other.replacePersistentValues(["k": "new"], forName: "bad")
                case .persistentDomainNames: #expect(other.persistentDomainNames().contains("other"))
                }
            } catch {
                thrown = error
            }
            let errors = (thrown.map { [$0] } ?? []) + reported.all.map { $0 as any Error }
            if entry == .persistentDomainNames {
                #expect(errors.isEmpty, "listing names opens nothing")
            } else {
                #expect(errors.count == 1, "\(errors)")
                #expect(kind.isExpected(errors.first, file: file), "\(errors)")
            }
            #expect(FileSnapshot.take(root)?.ignoringIndexContent.children.filter { $0.key.hasPrefix("bad.") } == before,
                    "the bad file and its neighbours are as they were")
            #expect(outside.flatMap(FileSnapshot.take) == outsideBefore, "the link's target is untouched")
            #expect(other.string(forKey: "k") == "mine", "the other domain is undisturbed")
            #expect(other.suiteNames.isEmpty)
        }
    }
}
