// swift-tools-version: 6.0
import PackageDescription

// A package of someone else's, using Headway's library products as README shows them. Built and
// run by Scripts/test-examples; README's Swift snippets are checked against Sources/ (ReadmeTests).
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
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
