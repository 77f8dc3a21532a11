import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// `prefs` as a real process: exit statuses, standard output and standard error.
@Suite struct PrefsProcessTests {
    static let verbs = [
        "read", "read-type", "exists", "write", "delete", "rename", "domains", "find", "export", "import", "watch", "prune",
    ]

    @Test func helpWorksForTheToolAndEveryVerb() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            let overview = try launcher.prefs("--help")
            #expect(overview.succeeded && overview.error.isEmpty && overview.output.hasPrefix("usage: prefs"))
            for verb in Self.verbs {
                let help = try launcher.prefs(verb, "--help")
                #expect(help.succeeded && help.error.isEmpty, "\(verb)")
                #expect(help.output.hasPrefix("usage: prefs [--root <dir> | --system | --managed] [--json] \(verb)"), "\(verb)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
        }
    }

    @Test func exitStatusesAndOneLineErrors() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            let write = try launcher.prefs("write", "app", "count", "-int", "3")
            #expect(write.succeeded && write.output.isEmpty && write.error.isEmpty)
            let read = try launcher.prefs("read", "app", "count")
            #expect(read.succeeded && read.output == "3\n")
            #expect(try launcher.prefs("read-type", "app", "count").output == "Type is integer\n")

            let missing = try launcher.prefs("read", "app", "absent")
            #expect(missing.status == 1 && missing.output.isEmpty)
            #expect(missing.error == "prefs: The domain/default pair of (app, absent) does not exist\n")

            let usage = try launcher.prefs("frobnicate")
            #expect(usage.status == 2 && usage.errorLines == ["prefs: unknown verb 'frobnicate'; run 'prefs --help'"])
            #expect(try launcher.prefs().status == 2)
            #expect(try launcher.prefs("--version").output == "prefs \(Defaults.packageVersion)\n")

            #expect(try launcher.prefs("exists", "app", "count").status == 0)
            #expect(try launcher.prefs("exists", "app", "absent").status == 1)
        }
    }

    @Test func aCorruptStoreIsReportedAndLeftByteIdentical() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            let file = root.appendingPathComponent("broken.sqlite3")
            let garbage = Data("SQLite format 3\0 but really private-marker garbage".utf8)
            try garbage.write(to: file)
            let input = Data(#"{"k":{"string":"v"}}"#.utf8)
            let commands: [[String]] = [
                ["read", "broken"], ["read", "broken", "k"], ["read-type", "broken", "k"], ["exists", "broken", "k"],
                ["write", "broken", "k", "v"], ["delete", "broken", "k"], ["delete", "broken"], ["rename", "broken", "a", "b"],
                ["export", "broken", "-"], ["import", "broken", "-"],
            ]
            for arguments in commands {
                let result = try launcher.run("prefs", arguments, input: input)
                #expect(result.status == 3, "\(arguments)")
                #expect(
                    result.errorLines.count == 1 && result.errorLines[0].hasPrefix("prefs: ")
                        && result.errorLines[0].contains("broken.sqlite3"), "\(arguments)")
                #expect(!result.error.contains("private-marker") && result.output.isEmpty, "\(arguments)")
                #expect(try Data(contentsOf: file) == garbage, "\(arguments) left the file untouched")
            }
        }
    }

    @Test func errorsNeverContainTheValue() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "token", "-string", "s3cr3t-value")
            for arguments in [
                ["write", "app", "n", "-int", "s3cr3t-value"], ["write", "app", "token", "-array-add", "x"],
                ["write", "app", "d", "-date", "s3cr3t-value"], ["write", "app", "b", "-bool", "s3cr3t-value"],
            ] {
                let result = try launcher.run("prefs", arguments)
                #expect(result.status == 2 && result.errorLines.count == 1, "\(arguments)")
                #expect(!result.error.contains("s3cr3t"), "\(arguments)")
            }
            #expect(try launcher.prefs("read", "app", "token").output == "s3cr3t-value\n")
        }
    }

    @Test func whatFollowsATypeFlagIsTheValueAndAValueIsNeverQuoted() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            let help = try launcher.prefs("write", "app", "k", "-string", "-h")
            #expect(help.succeeded && help.output.isEmpty && help.error.isEmpty)
            #expect(try launcher.prefs("read", "app", "k").output == "-h\n")
            let unknown = try launcher.prefs("write", "app", "k", "--secret-text")
            #expect(unknown.status == 2 && unknown.errorLines.count == 1 && unknown.errorLines[0].hasPrefix("prefs: argument 4 "))
            #expect(!unknown.error.contains("secret") && unknown.output.isEmpty)
            #expect(try launcher.prefs("read", "app", "k").output == "-h\n")
        }
    }

    @Test func anArgumentThatIsNotUTF8IsRefusedByItsPosition() throws {
        try withTemporaryRoot { root throws in
            let refused = try Launcher(root: root).shell(#"exec "$PREFS" write app "$(printf 'k\377')" v"#)
            #expect(!refused.signaled && refused.status == 2 && refused.output.isEmpty)
            #expect(refused.errorLines == ["prefs: argument 3 is not valid UTF-8; nothing was changed"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
        }
    }

    /// An output that cannot be written (full, closed) fails with exit status 3 and one line; a closed
    /// error stream too, silently; a closed input is a usage error; a write needs neither.
    @Test func unwritableStandardStreamsFailWithAStatusNotACrash() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "k", "v")
            let cases: [(script: String, status: Int32, error: [String])] = [
                (#"exec "$PREFS" read app k >/dev/full"#, 3, ["prefs: cannot write the output (No space left on device)"]),
                (#"exec "$PREFS" read app >&-"#, 3, ["prefs: cannot write the output (Bad file descriptor)"]),
                (#"exec "$PREFS" read app k >&- 2>&-"#, 3, []),
                (#"exec "$PREFS" read app absent 2>/dev/full"#, 1, []),
                (
                    #"exec "$PREFS" import app - <&-"#, 2,
                    ["prefs: cannot read standard input (Bad file descriptor); nothing was changed"]
                ),
                (#"exec "$PREFS" write app other v >&- 2>&- <&-"#, 0, []),
            ]
            for (script, status, error) in cases {
                let result = try launcher.shell(script)
                #expect(!result.signaled && result.status == status && result.errorLines == error, "\(script)")
            }
            #expect(try launcher.prefs("read", "app").output == "{\n    k = v;\n    other = v;\n}\n")
        }
    }

    /// The export file has mode 0600 whatever the umask of `prefs`: one that takes the owner's bits too
    /// (0277, 0777) does not make it unreadable to its owner, nor does it matter what it leaves to others.
    @Test(arguments: ["0277", "0777", "0000"])
    func theExportFileHasMode0600WhateverTheUmask(umask: String) throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "k", "v")
            let file = root.appendingPathComponent("app.json")
            let result = try launcher.shell(#"umask "$1" && exec "$PREFS" export app "$2""#, umask, file.path)
            #expect(result.succeeded, "\(result.errorLines)")
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        }
    }

    /// `prefs read | head -1`: the reader goes away while prefs still writes (1 MB, far more than a pipe
    /// holds); prefs ends quietly, with exit status 3, neither killed by SIGPIPE nor crashing.
    @Test func aReaderThatGoesAwayEndsTheOutputQuietly() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try Defaults(suiteName: "app", configuration: .init(location: .directory(root), arguments: []))
                .write(.string(String(repeating: "line\n", count: 200_000)), forKey: "lines")
            let result = try launcher.shell(#"{ "$PREFS" read app lines; echo "status $?" >&2; } | head -1"#)
            #expect(result.output == "line\n")
            #expect(result.error == "status 3\n")
        }
    }

    /// Under a file-size limit (`ulimit -f`), a write that needs more fails typed: exit status 3, one
    /// line without the value, the stored data intact; not killed by SIGXFSZ.
    @Test func aWriteOverTheFileSizeLimitFailsTypedAndLosesNothing() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "kept", "v")
            // NB: 96 blocks is 48 KiB in dash and 96 KiB in bash; the value, 120,000 bytes, fits in neither.
            // Not `exec`: the test runner starts its children with most signals blocked, SIGXFSZ among
            // them, which would hide the signal; the shell starts prefs with none blocked, as a user's does.
            let refused = try launcher.shell(
                #"ulimit -f 96 && "$PREFS" write app big -string "$1""#, String(repeating: "x", count: 120_000))
            #expect(!refused.signaled && refused.status == 3 && refused.output.isEmpty)
            #expect(
                refused.errorLines.count == 1 && refused.errorLines[0].hasPrefix("prefs: ")
                    && refused.errorLines[0].contains("'big'"))
            #expect(!refused.error.contains("xxxx"))
            #expect(try launcher.prefs("read", "app").output == "{\n    kept = v;\n}\n")
        }
    }

    @Test func rootOptionWinsOverTheEnvironment() throws {
        try withTemporaryRoot { root throws in
            let environmentRoot = Launcher(root: root.appendingPathComponent("env"))
            let optionRoot = root.appendingPathComponent("option")
            #expect(try environmentRoot.prefs("--root", optionRoot.path, "write", "app", "k", "v").succeeded)
            #expect(FileManager.default.fileExists(atPath: optionRoot.appendingPathComponent("app.sqlite3").path))
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("env").path))
            #expect(try environmentRoot.prefs("read", "app", "k").status == 1)
            #expect(try environmentRoot.prefs("read", "app", "k", "--root=\(optionRoot.path)").output == "v\n")
        }
    }

    @Test func readingAMissingRootCreatesNothing() throws {
        try withTemporaryRoot { root throws in
            let missing = Launcher(root: root.appendingPathComponent("missing"))
            #expect(try missing.prefs("read", "app", "k").status == 1)
            #expect(try missing.prefs("read-type", "app", "k").status == 1)
            #expect(try missing.prefs("exists", "app", "k").status == 1)
            #expect(try missing.prefs("export", "app", "-").status == 1)
            #expect(try missing.prefs("delete", "app").status == 1)
            #expect(try missing.prefs("domains").output == "\n")
            #expect(try missing.prefs("find", "x").status == 1)
            #expect(try missing.prefs("prune", "--prefix", "it.app", "--any-age").succeeded)
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("missing").path))
        }
    }

    @Test func globalDomainAndDomainList() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "-g", "AppleLocale", "en_GB")
            try launcher.prefs("write", "com.b", "k", "1")
            try launcher.prefs("write", "com.a", "k", "1")
            #expect(try launcher.prefs("read", "NSGlobalDomain", "AppleLocale").output == "en_GB\n")
            #expect(try launcher.prefs("domains").output == "com.a, com.b\n")
            let found = try launcher.prefs("find", "en_gb")
            #expect(
                found.succeeded && found.output == "Found 1 keys in domain 'NSGlobalDomain': {\n    AppleLocale = en_GB;\n}\n")
        }
    }

    @Test func importReadsStandardInput() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            let input = Data(#"{"size":{"integer":12},"when":{"date":0.5}}"#.utf8)
            #expect(try launcher.prefs("import", "app", "-", input: input).succeeded)
            #expect(
                try launcher.prefs("export", "app", "-", "--format", "json").output == """
                    {
                      "size" : {
                        "integer" : 12
                      },
                      "when" : {
                        "date" : 0.5
                      }
                    }

                    """)
        }
    }

    @Test func anUndecodableRowIsReportedOnceAndLeftAlone() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "good", "-int", "1")
            try launcher.prefs("write", "app", "bad", "-int", "2")
            let path = root.appendingPathComponent("app.sqlite3").path
            #expect(RawSQLite.firstText("UPDATE preferences SET value = 'private-marker' WHERE key = 'bad'", at: path) == "")

            let domain = try launcher.prefs("read", "app")
            #expect(domain.succeeded && domain.output == "{\n    good = 1;\n}\n")
            #expect(
                domain.errorLines.count == 1 && domain.errorLines[0].hasPrefix("prefs: warning: ")
                    && domain.errorLines[0].contains("'bad'"))

            for verb in ["read", "read-type", "exists"] {
                let key = try launcher.prefs(verb, "app", "bad")
                #expect(key.status == 3 && key.output.isEmpty, "\(verb)")
                #expect(
                    key.errorLines.count == 1 && key.errorLines[0].hasPrefix("prefs: The stored value for key 'bad'"), "\(verb)")
                #expect(!key.error.contains("private-marker"), "\(verb)")
            }
            #expect(RawSQLite.firstText("SELECT value FROM preferences WHERE key = 'bad'", at: path) == "private-marker")
        }
    }
}
