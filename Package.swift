// swift-tools-version: 6.0
import PackageDescription

// Layers (see README "Architecture"): each target depends only on the layers above it.
//   HeadwaySystem    the system calls every other target makes: files, sockets, signals, processes (C shim CPlatform)
//   HeadwayCore      progress model, lifecycle, estimator, clock        (no I/O)
//   HeadwaySurfaces  what drivers are given: RGB8 levels, 1-bit bitmaps, line levels
//   HeadwayRender    styles, colour pipeline, bitmap font              (no I/O)
//   HeadwayDevices   bus protocols and the drivers written against them    (no OS)
//   HeadwayLinux     the bus protocols on Linux: i2c-dev and libi2c, spidev, libgpiod (C shim CLinuxBuses)
//   HeadwaySimulator virtual devices and the terminal renderer (Simulator/)
//   Headway          the library product: show progress from a Swift program
//   HeadwayProtocol  the socket protocol and its transport, shared by client and service
//   HeadwayYAML      the configuration files' YAML reader (service and headway-ci)
//   HeadwayCI        CI servers, printers and a home followed as jobs: sources, polling policy, mapping (no I/O)
//   HeadwayReporting the one client core: a reporter's jobs, its connection policy, its socket and broker links
//   HeadwayClient    report to the service (or a broker) from a Swift program: jobs as values
//   HeadwayFoundation Foundation's Progress, dates and timers on an indicator or a service job
//   HeadwayToolProgress  the progress formats of the tools `headway run` knows (restic, borg, apt …)
//   HeadwayService   jobs, layout, scheduling, configuration, presets and the host loop
//   HeadwayDemo      the scripted demo job (shared by headway-sim and headway-bench)
//   HeadwaydProgram, HeadwaySimProgram, HeadwayMQTTProgram, HeadwayCIProgram   the programs' command lines
//   headway, headwayd, headway-sim, headway-mqtt, headway-ci, headway-bench   the executables
//   headway-suite    headwayd, headway-sim, headway-mqtt and headway-ci in one executable (what the package ships)
let package = Package(
    name: "Headway",
    products: [
        .library(name: "Headway", targets: ["Headway"]),
        .library(name: "HeadwayLinux", targets: ["HeadwayLinux"]),
        .library(name: "HeadwaySimulator", targets: ["HeadwaySimulator"]),
        .library(name: "HeadwayProtocol", targets: ["HeadwayProtocol"]),
        .library(name: "HeadwayService", targets: ["HeadwayService"]),
        .library(name: "HeadwayClient", targets: ["HeadwayClient"]),
        .library(name: "HeadwayFoundation", targets: ["HeadwayFoundation"]),
        .library(name: "HeadwayToolProgress", targets: ["HeadwayToolProgress"]),
        .executable(name: "headway", targets: ["headway"]),
        .executable(name: "headwayd", targets: ["headwayd"]),
        .executable(name: "headway-sim", targets: ["headway-sim"]),
        .executable(name: "headway-bench", targets: ["headway-bench"]),
        .executable(name: "headway-mqtt", targets: ["headway-mqtt"]),
        .executable(name: "headway-ci", targets: ["headway-ci"]),
        .executable(name: "headway-suite", targets: ["headway-suite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        // `swift package generate-documentation` (Scripts/docs): a plugin, never linked into anything.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The few system interfaces Swift's Glibc module does not import (SO_PEERCRED, pidfd_open),
        // signal handlers that must be C, and the build's version.
        .target(name: "CPlatform", linkerSettings: [.linkedLibrary("crypt")]),
        // Every system call the other targets make, but the Linux buses' (HeadwayLinux's C shim).
        .target(name: "HeadwaySystem", dependencies: ["CPlatform"]),
        .target(
            name: "HeadwayCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(name: "HeadwaySurfaces"),
        .target(
            name: "HeadwayRender",
            dependencies: ["HeadwayCore", "HeadwaySurfaces", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(
            name: "HeadwayDevices",
            dependencies: ["HeadwayCore", "HeadwaySurfaces"]
        ),
        .target(
            name: "CLinuxBuses",
            linkerSettings: [.linkedLibrary("i2c"), .linkedLibrary("gpiod")]
        ),
        .target(
            name: "HeadwayLinux",
            dependencies: ["HeadwayDevices", "HeadwaySystem", "CLinuxBuses"]
        ),
        .target(
            name: "HeadwaySimulator",
            dependencies: ["HeadwayDevices", "HeadwayRender", "HeadwaySystem", .product(name: "RealModule", package: "swift-numerics")],
            path: "Simulator"
        ),
        .target(
            name: "Headway",
            dependencies: ["HeadwayCore", "HeadwaySurfaces", "HeadwayRender", "HeadwayDevices"]
        ),
        .target(
            name: "HeadwayProtocol",
            dependencies: ["HeadwayCore", "HeadwaySystem", "CPlatform"]
        ),
        .target(
            name: "HeadwayToolProgress",
            dependencies: ["HeadwayCore", "HeadwayProtocol", "HeadwaySystem"]
        ),
        // libmosquitto, loaded when MQTT is first used (docs/mqtt.md).
        .target(name: "CMosquitto", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "HeadwayMQTT",
            dependencies: ["CMosquitto", "HeadwayCore", "HeadwayProtocol", "HeadwaySystem"]
        ),
        .target(name: "HeadwayYAML", dependencies: ["HeadwayCore"]),
        // libcurl, loaded when headway-ci first asks a CI server (docs/ci.md).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "HeadwayCI", dependencies: ["HeadwayCore", "HeadwayProtocol", "HeadwayYAML"]),
        // The one client core every reporter runs (the headway command, headway-ci, HeadwayClient):
        // above both transports it speaks (the socket and a broker), below the programs; the
        // service and the bridge, which report no jobs of their own, do not link it.
        .target(
            name: "HeadwayReporting",
            dependencies: ["HeadwayCore", "HeadwayProtocol", "HeadwayMQTT", "HeadwaySystem", .product(name: "DequeModule", package: "swift-collections")]
        ),
        // A Swift program's client of the service: no Foundation, its I/O on a thread of its own.
        .target(
            name: "HeadwayClient",
            dependencies: ["HeadwayCore", "HeadwayProtocol", "HeadwayMQTT", "HeadwayReporting", "HeadwaySystem"]
        ),
        // The bridges from Foundation (Progress, Date), kept out of every other target.
        .target(
            name: "HeadwayFoundation",
            dependencies: ["Headway", "HeadwayClient"]
        ),
        // libsystemd's sd-bus, loaded when systemd units are first watched (docs/configuration.md).
        .target(name: "CSystemd", linkerSettings: [.linkedLibrary("dl")]),
        // libmicrohttpd, loaded when the service's web page is configured (docs/web.md).
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        .target(
            name: "HeadwayService",
            dependencies: [
                "Headway", "HeadwayProtocol", "HeadwayYAML", "HeadwaySystem", "CSystemd", "CMicroHTTPD", "CCurl",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            exclude: ["Web/assets"]
        ),
        .target(
            name: "HeadwayDemo",
            dependencies: ["Headway"]
        ),
        .executableTarget(
            name: "headway",
            dependencies: ["HeadwayProtocol", "HeadwayCore", "HeadwayMQTT", "HeadwayReporting", "HeadwayToolProgress", "HeadwaySystem"]
        ),
        // The three programs' command trees are libraries, so that each has an executable of its
        // own (`swift run headway-sim`) and headway-suite can hold all three.
        .target(
            name: "HeadwaydProgram",
            dependencies: [
                "HeadwayService",
                "HeadwayLinux",
                "HeadwaySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/headwayd"
        ),
        .target(
            name: "HeadwaySimProgram",
            dependencies: [
                "Headway",
                "HeadwayDemo",
                "HeadwayService",
                "HeadwaySimulator",
                "HeadwaySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/headway-sim"
        ),
        .target(
            name: "HeadwayMQTTProgram",
            dependencies: ["HeadwayMQTT", "HeadwayProtocol", "HeadwaySystem", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/headway-mqtt"
        ),
        .target(
            name: "HeadwayCIProgram",
            dependencies: [
                "HeadwayCI", "CCurl", "HeadwayMQTT", "HeadwayProtocol", "HeadwayReporting", "HeadwayCore", "HeadwaySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/headway-ci"
        ),
        .executableTarget(name: "headwayd", dependencies: ["HeadwaydProgram"], path: "Sources/Programs/headwayd"),
        .executableTarget(name: "headway-sim", dependencies: ["HeadwaySimProgram"], path: "Sources/Programs/headway-sim"),
        .executableTarget(name: "headway-mqtt", dependencies: ["HeadwayMQTTProgram"], path: "Sources/Programs/headway-mqtt"),
        .executableTarget(name: "headway-ci", dependencies: ["HeadwayCIProgram"], path: "Sources/Programs/headway-ci"),
        .executableTarget(
            name: "headway-suite",
            dependencies: [
                "HeadwaydProgram", "HeadwaySimProgram", "HeadwayMQTTProgram", "HeadwayCIProgram",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Programs/headway-suite"
        ),
        .executableTarget(
            name: "headway-bench",
            dependencies: ["Headway", "HeadwayDemo", "HeadwaySimulator", "HeadwayClient", "HeadwayCI", "HeadwaySystem", "HeadwayService", "HeadwayToolProgress", "HeadwayProtocol"]
        ),
        .testTarget(name: "HeadwayCoreTests", dependencies: ["HeadwayCore"]),
        .testTarget(name: "HeadwayRenderTests", dependencies: ["HeadwayRender"], exclude: ["Golden"]),
        .testTarget(name: "HeadwaySimulatorTests", dependencies: ["HeadwaySimulator", "HeadwayDevices", "HeadwayCore", "HeadwayService", "HeadwaySimProgram"]),
        .testTarget(name: "HeadwayTests", dependencies: ["Headway", "HeadwaySimulator"]),
        .testTarget(name: "HeadwayProtocolTests", dependencies: ["HeadwayProtocol"]),
        .testTarget(name: "HeadwayToolProgressTests", dependencies: ["HeadwayToolProgress"], exclude: ["Fixtures"]),
        .testTarget(name: "HeadwayServiceTests", dependencies: ["HeadwayService", "HeadwayYAML", "HeadwaySimulator", "HeadwaySystem"]),
        .testTarget(name: "HeadwayLinuxTests", dependencies: ["HeadwayLinux", "HeadwayCore"]),
        .testTarget(name: "HeadwayMQTTTests", dependencies: ["HeadwayMQTT", "HeadwayProtocol"], exclude: ["HomeAssistant"]),
        .testTarget(name: "HeadwayFoundationTests", dependencies: ["HeadwayFoundation", "Headway", "HeadwaySimulator"]),
        .testTarget(name: "HeadwayCITests", dependencies: ["HeadwayCI", "HeadwayProtocol", "HeadwayCore"]),
        .testTarget(name: "HeadwayReportingTests", dependencies: ["HeadwayReporting", "HeadwayProtocol", "HeadwayCore"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["HeadwayProtocol", "HeadwayCore", "HeadwayMQTT", "HeadwayClient", "HeadwayFoundation", "HeadwaySystem"],
            exclude: ["RealTools/throttled_http.py"]),
        // Run in a QEMU guest by Scripts/kernel-test; skipped elsewhere. VM/ holds the guest's
        // init, its test script and the recording drivers' sources.
        .testTarget(
            name: "KernelTests",
            dependencies: ["HeadwayLinux", "HeadwayDevices", "HeadwayRender", "HeadwaySimulator", "HeadwayCore"],
            exclude: ["VM"]),
    ],
    swiftLanguageModes: [.v6]
)

// A build that runs only some suites (the sanitizers', the arm64 kernel test's) names their test
// targets in HEADWAY_TEST_TARGETS (comma-separated), and the others are left out of it: it
// compiles only what it runs. Unset, as for every other build, every test target is in.
if let wanted = Context.environment["HEADWAY_TEST_TARGETS"].map({ Set($0.split(separator: ",").map(String.init)) }) {
    package.targets.removeAll { $0.type == .test && !wanted.contains($0.name) }
}
