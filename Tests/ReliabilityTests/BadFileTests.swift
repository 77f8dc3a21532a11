import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Every way into a domain meets a bad file with a typed error naming it, and leaves it (and any file a
/// link points to) exactly as it was: same bytes, inode, mode and modification time, nothing created
/// next to it. (`LayeredDefaultsTests.BadInputTests` covers opening; this covers every entry point.)
@Suite(.hangLimit(minutes: 1))
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
            let other = try Defaults(
                suiteName: "other", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record)
            )
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
            #expect(
                FileSnapshot.take(root)?.ignoringIndexContent.children.filter { $0.key.hasPrefix("bad.") } == before,
                "the bad file and its neighbours are as they were")
            #expect(outside.flatMap(FileSnapshot.take) == outsideBefore, "the link's target is untouched")
            #expect(other.string(forKey: "k") == "mine", "the other domain is undisturbed")
            #expect(other.suiteNames.isEmpty)
        }
    }

    /// A file mounted on a domain's file or on its `-wal` (`mount --bind`, in a child's own mount namespace)
    /// is a second path to that file with one link, which SQLite would give a log of its own (writes lost):
    /// the open is refused with ``DefaultsError/mountPoint(path:)`` naming that path, and nothing is
    /// written through it.
    @Test(arguments: ["", "-wal"])
    func aFileMountedOnTheStoreIsRefused(suffix: String) throws {
        try withTemporaryRoot { parent in
            let first = parent.appendingPathComponent("first")
            let second = parent.appendingPathComponent("second")
            #expect(try runFixture(first, "app", ["write", "k", #"{"string":"v"}"#]).status == 0)
            #expect(try runFixture(second, "app", ["write", "k", #"{"string":"w"}"#]).status == 0)
            // NB: onto the second domain's file goes the first's; onto its log (absent once closed), an empty file.
            let source = suffix.isEmpty ? databaseFile("app", in: first) : parent.appendingPathComponent("outside")
            let target = databaseFile("app", in: second).path + suffix
            if !suffix.isEmpty {
                #expect(FileManager.default.createFile(atPath: source.path, contents: nil))
                #expect(FileManager.default.createFile(atPath: target, contents: nil))
            }
            let script = """
                mount --bind "$1" "$2" || exit 99
                shift 2
                exec "$@"
                """
            let child = try runInOwnMountNamespace(
                script,
                [
                    source.path, target, BuiltProducts.url(of: "defaults-fixture").path,
                    second.path, "app", "write", "k2", #"{"string":"x"}"#,
                ])
            #expect(child.status == 2)
            #expect(child.error == "defaults-fixture: \(DefaultsError.mountPoint(path: target))\n")
            #expect(try freshValues(of: databaseFile("app", in: first)) == ["k": "v"])
            #expect(try Data(contentsOf: source).isEmpty || suffix.isEmpty, "nothing written through the mounted log")
        }
    }
}
