import Foundation
import LayeredDefaultsTesting
import PackageTestSupport
import Testing

@testable import LayeredDefaults

#if os(Linux)
    /// Observation of other processes' commits through the directories' events (inotify), not a poll:
    /// an idle observer sleeps, and each commit of another process is delivered.
    @Suite struct ObservationWithoutPollingTests {
        @Test func aFollowedDatabaseChangeWakesTheWaiterAndAnotherFileDoesNot() throws {
            try withTemporaryRoot { root in
                let events = try #require(DirectoryEvents())
                let database = root.appendingPathComponent("app.sqlite3").path
                #expect(events.follow(databases: [database]) == DirectoryEvents.Unwatched())
                #expect(
                    FileManager.default.createFile(atPath: root.appendingPathComponent("other.sqlite3-wal").path, contents: nil))
                #expect(events.wait(until: .now, listening: true) == DirectoryEvents.Wakeup(), "another domain's file")
                #expect(FileManager.default.createFile(atPath: database + "-wal", contents: nil))
                #expect(events.wait(until: .now + .seconds(5), listening: true).changed, "the database's log")
                events.waker.wake()
                #expect(events.wait(until: .now + .seconds(5), listening: false) == DirectoryEvents.Wakeup(woken: true))

                let missing = root.appendingPathComponent("not-yet")
                let unwatched = events.follow(databases: [missing.appendingPathComponent("app.sqlite3").path])
                #expect(unwatched.missing == [missing.path] && unwatched.failed.isEmpty)
                #expect(events.watchedDirectories.isEmpty, "the directory no database is followed in is let go")
            }
        }

        @Test func looksFollowAnEventAtGrowingDelaysAndABurstIsSpaced() {
            let start = ContinuousClock.now
            var schedule = LookSchedule()
            #expect(schedule.deadline == nil && schedule.wantsEvents(at: start))
            schedule.eventArrived(at: start)
            var looks: [Duration] = []
            while let deadline = schedule.deadline {
                looks.append(deadline - start)
                schedule.looked(at: deadline) { false }
            }
            #expect(looks == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map { .milliseconds($0) }, "then none: idle")

            let look = start + .seconds(10)
            schedule.eventArrived(at: look - .milliseconds(1))
            schedule.looked(at: look) { false }
            let soon = look + .microseconds(100)
            #expect(!schedule.wantsEvents(at: soon), "an event so soon after a look cannot bring the next one sooner")
            schedule.eventArrived(at: soon)
            #expect(schedule.deadline == look + LookSchedule.burstSpacing)
        }

        @Test func looksGoOnWhileAnotherProcessMayBeCommitting() {
            let start = ContinuousClock.now
            var schedule = LookSchedule()
            schedule.eventArrived(at: start)
            var asked = 0
            var looks: [Duration] = []
            while let deadline = schedule.deadline, looks.count < 20 {
                looks.append(deadline - start)
                schedule.looked(at: deadline) {
                    asked += 1
                    return asked < 3  // NB: the third look from the last of the delays on finds none.
                }
            }
            let delays = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map { Duration.milliseconds($0) }
            #expect(looks == delays + [612, 712].map { .milliseconds($0) }, "every 100 ms, then none: idle")
            #expect(asked == 3, "asked only when no look after the event is left")

            schedule.eventArrived(at: start + .seconds(10))
            #expect(schedule.deadline == start + .seconds(10) + .milliseconds(1), "an event starts the looks over")
        }

        @Test func anIdleObserverDoesNotWake() throws {
            try withTemporaryRoot { root in
                let defaults = try makeDefaults("app", root: root)
                let stores = defaults.observedStores  // NB: asking opens nothing: the global domain is not searched yet.
                #expect(stores.map(\.name) == ["app"])
                // NB: the commits of the files' creation are checkpointed now, not during the quiet second.
                StoreRegistry.checkpointIfIdleForTesting(under: root)
                // NB: a center of its own, so parallel tests' observations do not wake it.
                let center = ObservationCenter()
                let observation = center.add(keys: ["k"], stores: { defaults.observedStores }) {}
                defer { center.remove(observation) }
                Thread.sleep(forTimeInterval: 0.2)  // NB: the thread's first pass, before the quiet second.
                let before = center.wakeUpsForTesting
                Thread.sleep(forTimeInterval: 1)
                #expect(center.wakeUpsForTesting - before == 0, "a 100 ms poll would wake it 10 times")
                #expect(!center.isPollingForTesting)
            }
        }

        /// A commit of another process whose log is synced slowly (`synchronous = FULL` on a slow disk, here
        /// 2 s) is published in the WAL-index header, which raises no event, long after its log's event:
        /// the observer keeps looking while that process is in its transaction, sees the commit, and then
        /// rests (no wake-up while the writer stays open, idle).
        @Test func aCommitSlowToPublishIsSeenAndThenTheObserverRests() throws {
            try withTemporaryRoot { root in
                let defaults = try makeDefaults("app", root: root)
                try defaults.write("before", forKey: "k")
                StoreRegistry.checkpointIfIdleForTesting(under: root)
                // NB: a center of its own, so parallel tests' observations do not wake it.
                let center = ObservationCenter()
                let seen = DispatchSemaphore(value: 0)
                let observation = center.add(keys: ["k"], stores: { defaults.observedStores }) {
                    if (try? defaults.persistentValue(forKey: "k")) == "slow" { seen.signal() }
                }
                defer { center.remove(observation) }
                let (writer, input, acknowledgement) = try commitSlowToPublish(
                    "slow", key: "k", suite: "app", in: root, milliseconds: 2000)
                #expect(acknowledgement == "slow", "committed")
                #expect(seen.wait(timeout: .now() + 15) == .success, "seen, with no later event")
                Thread.sleep(forTimeInterval: 0.5)  // NB: the look that found the commit over may bring one more.
                let before = center.wakeUpsForTesting
                Thread.sleep(forTimeInterval: 1)
                #expect(center.wakeUpsForTesting - before == 0, "at rest while the writer is idle")
                #expect(!center.isPollingForTesting)
                try input.close()
                #expect(try writer.wait(before: .now + .seconds(60)) == 0)
            }
        }

        /// Through a store (which checkpoints its log once idle: another event) and through a plain SQLite
        /// connection (`raw`: no event after the commit's, as from the `sqlite3` shell).
        @Test(arguments: [[], ["raw"]]) func eachOfManyCommitsOfAnotherProcessIsDelivered(writer kind: [String]) async throws {
            try await withTemporaryRoot { root in
                let defaults = try makeDefaults("app", root: root)
                try defaults.write(true, forKey: "made")  // NB: the raw writer opens an existing file.
                let values = ObservedValues(defaults.changes(of: .key("k"), initial: false))
                let input = Pipe()
                let writer = try ChildProcess(
                    "defaults-fixture", [root.path, "app", "write-lines", "k"] + kind, input: input.fileHandleForReading)
                // NB: one write at a time, the next once the last was delivered: none may be coalesced, so
                // a commit whose event came before it was visible, and then was never looked at, fails here.
                for index in 1...200 {
                    input.fileHandleForWriting.write(Data("v\(index)\n".utf8))
                    _ = try await values.until(timeout: .seconds(5)) { $0.last == .string("v\(index)") }
                }
                #expect(!ObservationCenter.shared.isPollingForTesting, "delivered by the directory's events")
                try input.fileHandleForWriting.close()
                #expect(try writer.wait(before: .now + .seconds(60)) == 0)
            }
        }
    }
#endif
