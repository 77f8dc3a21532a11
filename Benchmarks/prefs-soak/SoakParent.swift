import Foundation
import LayeredDefaults

/// Parent mode: starts the children, collects their acknowledgements, verifies the final state.
struct SoakParent {
    let options: SoakOptions

    func run() -> Int32 {
        let root =
            options.root
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("prefs-soak-\(UUID().uuidString)", isDirectory: true)
        defer { if options.root == nil { try? FileManager.default.removeItem(at: root) } }
        report(
            "\(options.processes) processes for \(options.seconds) s, \(options.keys) keys each and "
                + "\(SoakOptions.counters) shared counters, suite '\(SoakOptions.suite)' in \(root.path), seed \(options.seed)")

        let start = ContinuousClock.now
        let ledgers: [SoakLedger]
        let statuses: [Int32]
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try SoakBoard.create(in: root, children: options.processes)
            (ledgers, statuses) = try runChildren(root: root)
        } catch {
            report("cannot run the children: \(error)")
            return 1
        }
        let elapsed = ContinuousClock.now - start
        let seconds = elapsed / .seconds(1)

        let operations = ledgers.reduce(0) { $0 + $1.operations }
        func total(_ field: (SoakLedger) -> Int) -> Int { ledgers.reduce(0) { $0 + field($1) } }
        report(
            String(format: "%d operations in %.1f s = %.0f operations/s", operations, seconds, Double(operations) / seconds)
                + " (writes \(total(\.writes)), removals \(total(\.removals)), transactions \(total(\.transactions)),"
                + " updates \(total { $0.increments.reduce(0, +) }), progress writes \(total(\.progressWrites)),"
                + " writes that change nothing \(total(\.noOpWrites)), reads \(total(\.reads)))")

        let verdict: Verdict
        do {
            verdict = try verify(ledgers, root: root)
        } catch {
            report("cannot read the suite back: \(error)")
            return 1
        }
        let errors = ledgers.flatMap(\.errors)
        let unfinished = ledgers.filter { !$0.isDone }.count + statuses.filter { $0 != 0 }.count
        for error in errors.prefix(5) { report("error: \(error)") }
        for ledger in ledgers {
            for (writer, reports) in Dictionary(grouping: ledger.staleReports, by: \.child).sorted(by: { $0.key < $1.key }) {
                report(
                    "stale: process \(ledger.child) read the progress of process \(writer) stale \(reports.count) times,"
                        + " up to \(reports.map(\.behind).max() ?? 0) commits behind")
            }
        }
        let acknowledged =
            total(\.writes) + total(\.removals) + total(\.transactions) + total(\.progressWrites)
            + total { $0.increments.reduce(0, +) }
        report(
            "verified \(verdict.keys) keys and \(SoakOptions.counters) counters against \(acknowledged) acknowledged writes:"
                + " lost \(verdict.lost), unexpected \(verdict.unexpected), stale reads \(total(\.stale))"
                + " (\(total { $0.staleReports.count }) of \(total(\.checks)) reads of other processes' progress),"
                + " non-atomic updates \(total(\.nonMonotonic)), errors \(errors.count), failed processes \(unfinished)")
        FileHandle.standardOutput.write(Data("lost: \(verdict.lost)\nstale: \(total(\.stale))\n".utf8))
        let clean =
            verdict.lost == 0 && verdict.unexpected == 0 && total(\.stale) == 0 && total(\.nonMonotonic) == 0
            && errors.isEmpty && unfinished == 0
        return clean ? 0 : 1
    }

    struct Verdict {
        var keys = 0, lost = 0, unexpected = 0
    }

    /// Compares the suite, read by this process's first (hence fresh) connection, with the ledgers.
    private func verify(_ ledgers: [SoakLedger], root: URL) throws -> Verdict {
        let defaults = try Defaults(suiteName: SoakOptions.suite, configuration: .init(location: .directory(root), arguments: []))
        if options.simulateLoss, let ledger = ledgers.first(where: { $0.keys.values.contains { $0 != nil } }),
            let key = ledger.keys.first(where: { $0.value != nil })?.key
        {
            let name = SoakProtocol.key(child: ledger.child, index: key)
            report("simulating a lost write: removing '\(name)' before verifying")
            try defaults.write(nil, forKey: name)
        }
        var actual = try defaults.persistentValues()
        var verdict = Verdict()
        for ledger in ledgers {
            let progress = actual.removeValue(forKey: SoakProtocol.progressKey(child: ledger.child))?.integerValue ?? 0
            verdict.keys += 1
            verdict.lost += progress < ledger.progress ? 1 : 0
            verdict.unexpected += progress > ledger.progress ? 1 : 0
            for (index, expected) in ledger.keys {
                let name = SoakProtocol.key(child: ledger.child, index: index)
                let found = actual.removeValue(forKey: name)
                verdict.keys += 1
                switch (expected, found) {
                case (nil, nil): break
                case (nil, _?): verdict.unexpected += 1
                case (let value?, let stored): if stored != value { verdict.lost += 1 }
                }
            }
        }
        for counter in 0..<SoakOptions.counters {
            let expected = ledgers.reduce(0) { $0 + $1.increments[counter] }
            let found = actual.removeValue(forKey: SoakProtocol.counter(counter))?.integerValue ?? 0
            verdict.lost += max(0, expected - found)
            verdict.unexpected += max(0, found - expected)
        }
        verdict.unexpected += actual.count  // keys no acknowledged operation wrote
        verdict.unexpected += max(0, ledgers.reduce(0) { $0 + $1.migrationsRun } - 1)  // a migration that ran twice
        return verdict
    }

    /// Starts the children and reads their output until they all exit.
    private func runChildren(root: URL) throws -> ([SoakLedger], [Int32]) {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var children: [(process: Process, output: Int32, pending: Data)] = []
        for index in 0..<options.processes {
            let process = Process()
            process.executableURL = executable
            process.arguments = options.childArguments(index, root: root)
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            children.append((process, pipe.fileHandleForReading.fileDescriptor, Data()))
        }
        var ledgers = (0..<options.processes).map { SoakLedger(child: $0) }
        var open = Set(0..<children.count)
        let deadline = ContinuousClock.now + .milliseconds(Int(options.seconds * 1000)) + .seconds(120)
        var nextProgress = ContinuousClock.now + .seconds(10)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !open.isEmpty {
            guard ContinuousClock.now < deadline else {
                report("children still running 120 s after the end: killing them")
                for index in open { kill(children[index].process.processIdentifier, SIGKILL) }
                break
            }
            var descriptors = open.sorted().map { pollfd(fd: children[$0].output, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 1000) >= 0 || errno == EINTR else { break }
            for entry in descriptors where entry.revents != 0 {
                let index = children.firstIndex { $0.output == entry.fd }!
                let count = read(entry.fd, &buffer, buffer.count)
                guard count > 0 else {
                    if count == 0 || errno != EINTR { open.remove(index) }
                    continue
                }
                children[index].pending.append(contentsOf: buffer[0..<count])
                while let newline = children[index].pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: children[index].pending[..<newline], as: UTF8.self)
                    children[index].pending.removeSubrange(...newline)
                    ledgers[index].apply(line[...])
                }
            }
            if ContinuousClock.now >= nextProgress {
                nextProgress = nextProgress + .seconds(10)
                report("... \(ledgers.reduce(0) { $0 + $1.operations - $1.reads }) acknowledged writes so far")
            }
        }
        for child in children { child.process.waitUntilExit() }
        return (ledgers, children.map(\.process.terminationStatus))
    }

    /// One line on standard output, written at once (progress must show while the children run).
    private func report(_ line: String) {
        FileHandle.standardOutput.write(Data("prefs-soak: \(line)\n".utf8))
    }
}
