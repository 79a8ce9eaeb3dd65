// swift-tools-version: 6.0
import PackageDescription

// A package of someone else's, using Headway's library products as docs/swift.md shows them. Built
// and run by Scripts/test-examples (`ReadmeExamples copy SOURCE TARGET` against a headway-sim serve,
// and with no service); the Swift snippets of docs/swift.md and README.md are checked against
// Sources/ (ReadmeTests).
let package = Package(
    name: "ReadmeExamples",
    dependencies: [.package(name: "Headway", path: "../..")],
    targets: [
        .executableTarget(
            name: "ReadmeExamples",
            dependencies: [
                .product(name: "Headway", package: "Headway"),
                .product(name: "HeadwayLinux", package: "Headway"),
                .product(name: "HeadwaySimulator", package: "Headway"),
                .product(name: "HeadwayClient", package: "Headway"),
                .product(name: "HeadwayFoundation", package: "Headway"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
