import Foundation
import LayeredDefaults

let settingsDirectory = URL(fileURLWithPath: "Settings", isDirectory: true)  // ./Settings
let custom = try Defaults(
    suiteName: "com.example.app",
    configuration: .init(
        location: .directory(settingsDirectory),  // default: .default (see "Where files live")
        arguments: [],  // default: CommandLine.arguments
        suites: ["com.example.shared"],  // searched after this domain; default: none
        busyTimeout: .seconds(2),  // default: 5 s
        errorHandler: { error in print(error) }))  // default: one line on standard error
