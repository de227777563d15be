// swift-tools-version:6.1
// The pure core of gestured: no I/O, no system libraries, time passed in. Kernel events
// go in, a `Step` (frame, gesture events, transitions, actions, next deadline) comes
// out. Its own package so that `swift test` here needs no -dev package at all;
// ConfigSyntax parses with TOMLKit, which builds toml++ (C++) from source.
import PackageDescription

let package = Package(
    name: "gestured-core",
    products: [
        .library(name: "TouchCore", targets: ["TouchCore"]),
        .library(name: "Gestures", targets: ["Gestures"]),
        .library(name: "ConfigDocument", targets: ["ConfigDocument"]),
        .library(name: "Config", targets: ["Config"]),
        .library(name: "ConfigSyntax", targets: ["ConfigSyntax"]),
        .library(name: "ConfigParsing", targets: ["ConfigParsing"]),
        .library(name: "ConfigEdit", targets: ["ConfigEdit"]),
        .library(name: "Bindings", targets: ["Bindings"]),
        .library(name: "Delivery", targets: ["Delivery"]),
        .library(name: "Pipeline", targets: ["Pipeline"]),
        .library(name: "Reports", targets: ["Reports"]),
    ],
    dependencies: [
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        // Evemu parsing, the slot decoder, touch phases, device geometry in mm.
        .target(name: "TouchCore"),
        // One recognizer per file (Recognizers/), the arbiter, regions.
        .target(name: "Gestures", dependencies: ["TouchCore", .product(name: "RealModule", package: "swift-numerics")]),
        // Gesture event → actions.
        .target(name: "Bindings", dependencies: ["Gestures", "TouchCore", .product(name: "RealModule", package: "swift-numerics")]),
        // A TOML document's values, and what the parsing helper hands over (ParseOutcome).
        .target(name: "ConfigDocument"),
        // That document → a validated model, errors located by file:line:col or key path.
        .target(name: "Config", dependencies: ["ConfigDocument", "Gestures", "Bindings", "TouchCore"]),
        // TOML text → the document, with TOMLKit (toml++): for the parsing helper.
        .target(name: "ConfigSyntax", dependencies: ["ConfigDocument", .product(name: "TOMLKit", package: "TOMLKit")]),
        // Both in one process: for the tests, the fuzzers and the benchmarks.
        .target(name: "ConfigParsing", dependencies: ["ConfigSyntax", "ConfigDocument", "Config", "Bindings"]),
        // A file's text edited a gesture at a time, the rest as written: the studio's saving.
        .target(name: "ConfigEdit", dependencies: ["ConfigDocument", "TouchCore"]),
        // What the uinput twin of an isolated panel gets: UIKit's touch delivery.
        .target(name: "Delivery", dependencies: ["TouchCore", "Gestures"]),
        // The one step: a touchscreen's input → what happened and what to do.
        .target(name: "Pipeline", dependencies: ["TouchCore", "Gestures", "Bindings", "Config", "ConfigDocument", "Delivery"]),
        // Replay lines, JSON lines, evaluation tables.
        .target(name: "Reports", dependencies: ["TouchCore", "Gestures", "Bindings", "Pipeline", "Config", "Delivery"]),

        .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "Pipeline", "Config", "ConfigDocument", "ConfigSyntax", "ConfigParsing", "Bindings", "TouchCore"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "ConfigDocument", "ConfigSyntax", "ConfigParsing", "ConfigEdit", "Gestures", "Bindings"]),
        .testTarget(name: "DeliveryTests", dependencies: ["Delivery", "Gestures", "TouchCore"]),
        .testTarget(name: "BindingsTests", dependencies: ["Bindings", "Gestures", "TouchCore"]),
        // Also runs every recording in Tests/Fixtures (see scripts/make-fixtures).
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Reports", "Config", "ConfigDocument", "ConfigSyntax", "ConfigParsing", "Gestures", "Bindings", "TouchCore",
                                                      .product(name: "RealModule", package: "swift-numerics")]),
    ],
    swiftLanguageModes: [.v6]
)
