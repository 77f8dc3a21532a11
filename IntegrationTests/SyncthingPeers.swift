import Foundation
import PackageTestSupport
import Testing

/// Syncthing instances on the loopback interface, each with its own home, sharing one folder (each
/// its own copy of it), reaching nothing but each other.
///
/// Their configuration is written before they start: global and local discovery off (no broadcasts),
/// relays, NAT traversal, usage and crash reporting and upgrades off, the GUI/REST and sync listeners
/// bound to 127.0.0.1 on free ports, and each peer named by its 127.0.0.1 address. Short watcher delay
/// and rescan interval, so a change is replicated within a second or two.
final class SyncthingPeers {
    /// One instance.
    struct Peer {
        let home: URL
        /// Its copy of the shared folder.
        let folder: URL
        let deviceID: String
        let listenPort: Int
        let guiPort: Int
    }

    let peers: [Peer]
    private let syncthing: URL
    private var processes: [Process] = []

    /// Makes `count` instances' homes and folders under `root`, their keys (`syncthing generate`, which
    /// starts nothing) and their configuration.
    init(count: Int, under root: URL) throws {
        syncthing = try ExternalTool.syncthing.executable()
        var peers: [Peer] = []
        for index in 0..<count {
            let home = root.appendingPathComponent("syncthing-\(index)")
            let folder = root.appendingPathComponent("folder-\(index)")
            // Syncthing refuses a folder without its marker.
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
            let output = try Self.run(
                syncthing, ["generate", "--home=\(home.path)", "--no-default-folder", "--skip-port-probing"])
            guard let line = output.split(separator: "\n").first(where: { $0.contains("Device ID: ") }) else {
                throw SyncthingFailure(description: "syncthing generate printed no device id")
            }
            let id = String(line[line.range(of: "Device ID: ")!.upperBound...]).trimmingCharacters(in: .whitespaces)
            peers.append(
                Peer(home: home, folder: folder, deviceID: id, listenPort: try Self.freePort(), guiPort: try Self.freePort()))
        }
        self.peers = peers
        for peer in peers {
            try Data(configuration(of: peer).utf8).write(to: peer.home.appendingPathComponent("config.xml"))
        }
    }

    deinit { stop() }

    /// The configuration of `peer`: the shared folder and every peer, by its 127.0.0.1 address.
    func configuration(of peer: Peer) -> String {
        let devices = peers.map { "        <device id=\"\($0.deviceID)\" introducedBy=\"\"></device>" }.joined(separator: "\n")
        let addresses = peers.enumerated().map { index, other in
            """
                <device id="\(other.deviceID)" name="peer-\(index)" compression="metadata" introducer="false">
                    <address>tcp://127.0.0.1:\(other.listenPort)</address>
                </device>
            """
        }.joined(separator: "\n")
        return """
            <configuration version="36">
                <folder id="layered-defaults" label="layered-defaults" path="\(peer.folder.path)" type="sendreceive" rescanIntervalS="2" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
                    <filesystemType>basic</filesystemType>
            \(devices)
                    <minDiskFree unit="%">0</minDiskFree>
                </folder>
            \(addresses)
                <gui enabled="true" tls="false">
                    <address>127.0.0.1:\(peer.guiPort)</address>
                    <apikey>\(UUID().uuidString)</apikey>
                </gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(peer.listenPort)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <urAccepted>-1</urAccepted>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <startBrowser>false</startBrowser>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <minHomeDiskFree unit="%">0</minHomeDiskFree>
                </options>
            </configuration>

            """
    }

    /// Starts every instance: one process each, in a process group of its own (as `Process` starts a
    /// child), without Syncthing's monitor (`STMONITORED`), which would start the instance as a second
    /// process in another group.
    func start() throws {
        for peer in peers {
            let process = Process()
            process.executableURL = syncthing
            process.arguments = ["serve", "--home=\(peer.home.path)", "--no-browser", "--no-restart", "--logflags=0"]
            var environment = ProcessInfo.processInfo.environment
            environment["STNOUPGRADE"] = "1"
            environment["STNODEFAULTFOLDER"] = "1"
            environment["STMONITORED"] = "yes"
            process.environment = environment
            let log = peer.home.appendingPathComponent("run.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            try? handle.close()
            processes.append(process)
            groups.append(process.processIdentifier)
        }
    }

    /// Stops every instance: its process group is sent SIGTERM, then SIGKILL if it is still there after a
    /// few seconds; returns once each has exited (and was reaped).
    func stop() {
        for process in processes where process.isRunning { kill(-process.processIdentifier, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(10)
        for process in processes {
            while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
            if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        processes = []
    }

    /// The process groups of the instances started.
    private(set) var groups: [Int32] = []

    /// Whether a process of any instance's group is still there (`kill(-group, 0)`).
    var anyProcessLeft: Bool { groups.contains { kill(-$0, 0) == 0 } }

    /// Runs `executable` to its end; its standard output and error.
    private static func run(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A TCP port on 127.0.0.1 free a moment ago.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw SyncthingFailure(description: "no socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw SyncthingFailure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Setting up Syncthing failed.
struct SyncthingFailure: Error, CustomStringConvertible {
    let description: String
}
