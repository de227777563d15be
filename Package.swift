// swift-tools-version:6.1
// gestured: the daemon and its tools, around the pure core in Core/ (its own package, so
// its tests need no system library). Everything here touches the operating system.
import PackageDescription

/// What the daemon and the session agent both build on: the edge's modules, the loop,
/// the core's, the system and the log.
let seatsEdge: [Target.Dependency] = [
    "SystemIO", "Input", "Effects", "Loop",
    .product(name: "TouchCore", package: "Core"), .product(name: "Gestures", package: "Core"),
    .product(name: "Bindings", package: "Core"), .product(name: "Config", package: "Core"),
    .product(name: "Pipeline", package: "Core"),
    .product(name: "SystemPackage", package: "swift-system"), .product(name: "Logging", package: "swift-log"),
]

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gestured-parse-config", targets: ["gestured-parse-config"]),
        .executable(name: "gestured-studio", targets: ["gestured-studio"]),
    ],
    dependencies: [
        .package(path: "Core"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System libraries, found with pkg-config; the providers name the Debian packages.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // GTK 4, for the studio alone (gestured-studio, a package of its own).
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        // Linux system calls Glibc's module leaves out (epoll, timerfd, signalfd).
        .target(name: "CLinux"),
        // libxcb, opened only when an X display is followed (see its header).
        .target(name: "CXcb"),
        // System calls, files, spawning: each call wrapped once, every return code checked.
        .target(name: "SystemIO", dependencies: ["CLinux", .product(name: "SystemPackage", package: "swift-system")]),
        // Where events and configurations come from: evdev, udev, recording, timeline and config files.
        .target(name: "Input", dependencies: [
            "SystemIO", "CEvdev", "CUdev", "CXcb", .product(name: "TouchCore", package: "Core"), .product(name: "Config", package: "Core"),
            .product(name: "ConfigDocument", package: "Core"),
            .product(name: "Bindings", package: "Core"), .product(name: "Pipeline", package: "Core"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // What actions do: commands, D-Bus signals, systemd notifications, the session agent's overlay.
        .target(name: "Effects", dependencies: [
            "SystemIO", "CSystemd", "CXcb", .product(name: "TouchCore", package: "Core"), .product(name: "Gestures", package: "Core"),
            .product(name: "Bindings", package: "Core"), .product(name: "Pipeline", package: "Core"),
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The one loop the daemon and the session agent run (epoll, the timer, signals,
        // children, a configuration's parsing helper, the watchdog), the desktop's
        // followers both use, the log's handler.
        .target(name: "Loop", dependencies: [
            "SystemIO", "Input", "Effects", "CLinux",
            .product(name: "Bindings", package: "Core"), .product(name: "Config", package: "Core"), .product(name: "Gestures", package: "Core"),
            .product(name: "SystemPackage", package: "swift-system"), .product(name: "Logging", package: "swift-log"),
        ]),
        // The seat daemon: its sources (touchscreens, recordings, logind, reloads) → the seat's step → its performer.
        .target(name: "Daemon", dependencies: ["CLinux"] + seatsEdge),
        // The session agent: its user's configuration handed over, their commands run, the
        // application in front said, the overlay drawn.
        .target(name: "Agent", dependencies: seatsEdge),
        .executableTarget(name: "gestured", dependencies: [
            "SystemIO", "Input", "Loop", "Daemon", "Agent",
            .product(name: "TouchCore", package: "Core"), .product(name: "Config", package: "Core"),
            .product(name: "Pipeline", package: "Core"), .product(name: "Reports", package: "Core"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The TOML parser's process (see Input/ConfigParse.swift): gestured links no parser.
        .executableTarget(name: "gestured-parse-config", dependencies: [
            "SystemIO", .product(name: "ConfigDocument", package: "Core"), .product(name: "ConfigSyntax", package: "Core"),
        ]),

        // The studio: the user's gestures made and edited on the screen (GTK 4).
        .executableTarget(name: "gestured-studio", dependencies: [
            "CGtk", "Effects", "Input", "SystemIO",
            .product(name: "Config", package: "Core"), .product(name: "Pipeline", package: "Core"), .product(name: "ConfigDocument", package: "Core"),
            .product(name: "ConfigEdit", package: "Core"), .product(name: "ConfigParsing", package: "Core"),
            .product(name: "ConfigSyntax", package: "Core"), .product(name: "Gestures", package: "Core"),
            .product(name: "TouchCore", package: "Core"), .product(name: "Bindings", package: "Core"),
        ]),

        .testTarget(name: "InputTests", dependencies: [
            "Input", .product(name: "Pipeline", package: "Core"), .product(name: "Config", package: "Core"),
            .product(name: "ConfigParsing", package: "Core"),
            .product(name: "TouchCore", package: "Core"),
        ], path: "AdapterTests/InputTests"),
        .testTarget(name: "DaemonTests", dependencies: ["Daemon", "Effects", .product(name: "TouchCore", package: "Core"),
                                                     .product(name: "Pipeline", package: "Core")],
                    path: "AdapterTests/DaemonTests"),
    ],
    swiftLanguageModes: [.v6]
)
