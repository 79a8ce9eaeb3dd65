// swift-tools-version: 6.0
import PackageDescription

// Coverage-guided fuzzers (libFuzzer) for what strangers can send Headway: request lines on the
// socket, configuration files and the output of the tools `headway run` reads. Built only by Scripts/fuzz, with -sanitize=fuzzer,address, which
// links libFuzzer's driver that each main hands its inputs to.
let package = Package(
    name: "HeadwayFuzz",
    dependencies: [.package(name: "Headway", path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .executableTarget(
            name: "FuzzProtocol",
            dependencies: ["CFuzzDriver", .product(name: "HeadwayProtocol", package: "Headway"), .product(name: "HeadwayService", package: "Headway")]
        ),
        .executableTarget(
            name: "FuzzToolProgress",
            dependencies: ["CFuzzDriver", .product(name: "HeadwayToolProgress", package: "Headway")]
        ),
        .executableTarget(
            name: "FuzzConfiguration",
            dependencies: ["CFuzzDriver", .product(name: "HeadwayService", package: "Headway")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
