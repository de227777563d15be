// swift-tools-version:6.1
// libFuzzer targets for the pure core, kept out of its package: they build only with
// the fuzzer's instrumentation. `scripts/fuzz` builds and runs them:
//   swift build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
import PackageDescription

// gold, the default linker here, fails on these instrumented binaries (an internal error
// in its DWARF reader); lld, shipped with Swift, links them.
let lld: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "gestured-fuzz",
    dependencies: [.package(path: "../Core")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzEvemu", dependencies: [
            "FuzzSupport", .product(name: "TouchCore", package: "Core"),
        ], linkerSettings: lld),
        .executableTarget(name: "FuzzConfig", dependencies: [
            "FuzzSupport", .product(name: "Config", package: "Core"),
            .product(name: "ConfigDocument", package: "Core"), .product(name: "ConfigSyntax", package: "Core"),
        ], linkerSettings: lld),
        // Event streams from records, and the pipeline's invariants: FuzzPipeline's and FuzzExtremes'.
        .target(name: "FuzzStreams", dependencies: [
            "FuzzSupport", .product(name: "TouchCore", package: "Core"), .product(name: "Gestures", package: "Core"),
            .product(name: "Pipeline", package: "Core"),
        ]),
        .executableTarget(name: "FuzzPipeline", dependencies: [
            "FuzzSupport", "FuzzStreams", .product(name: "TouchCore", package: "Core"), .product(name: "Config", package: "Core"), .product(name: "ConfigParsing", package: "Core"),
            .product(name: "Gestures", package: "Core"), .product(name: "Pipeline", package: "Core"),
        ], linkerSettings: lld),
        .executableTarget(name: "FuzzExtremes", dependencies: [
            "FuzzSupport", "FuzzStreams", .product(name: "TouchCore", package: "Core"), .product(name: "Config", package: "Core"), .product(name: "ConfigParsing", package: "Core"),
            .product(name: "Bindings", package: "Core"), .product(name: "Pipeline", package: "Core"),
            .product(name: "Reports", package: "Core"),
        ], linkerSettings: lld),
    ]
)
