// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        // The pure modules, for the benchmarks in Benchmarks/.
        .library(name: "GesturedCore", targets: ["TouchCore", "Gestures", "Config", "Bindings", "Pipeline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The pure core: no I/O, no system libraries, time passed in. Events go in, a
        // `Step` (frame, gesture events, transitions, actions, next deadline) comes out.
        // Config parses with TOMLKit, which wraps toml++ (C++, built from source).
        .target(name: "TouchCore"),
        .target(name: "Gestures", dependencies: ["TouchCore", .product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "Bindings", dependencies: ["Gestures", "TouchCore"]),
        .target(
            name: "Config",
            dependencies: ["Gestures", "Bindings", "TouchCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .target(name: "Pipeline", dependencies: ["TouchCore", "Gestures", "Bindings", "Config"]),
        .target(name: "Reports", dependencies: ["TouchCore", "Gestures", "Bindings", "Pipeline"]),

        // The operating system's edge: adapters that only translate.
        // System libraries, found with pkg-config; the providers name the Debian packages.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // Linux system calls Glibc's module leaves out (epoll, timerfd, signalfd).
        .target(name: "CLinux"),
        // System calls, files, spawning: each call wrapped once.
        .target(name: "SystemIO", dependencies: ["CLinux", .product(name: "SystemPackage", package: "swift-system")]),
        // Where events and configurations come from: evdev, udev, recording and config files.
        .target(name: "Input", dependencies: ["TouchCore", "Config", "SystemIO", "CEvdev", "CUdev",
                                              .product(name: "SystemPackage", package: "swift-system")]),
        // What actions do: commands, D-Bus signals, systemd notifications.
        .target(name: "Effects", dependencies: ["Gestures", "Bindings", "SystemIO", "CSystemd",
                                                .product(name: "SystemPackage", package: "swift-system"),
                                                .product(name: "Logging", package: "swift-log")]),
        // The loop and the wiring: input → pipeline step → effects, and the timer.
        .target(name: "Daemon", dependencies: ["TouchCore", "Gestures", "Bindings", "Config", "Pipeline", "SystemIO",
                                               "Input", "Effects", "CLinux",
                                               .product(name: "SystemPackage", package: "swift-system"),
                                               .product(name: "Logging", package: "swift-log")]),
        .executableTarget(
            name: "gestured",
            dependencies: [
                "TouchCore", "Config", "Pipeline", "Reports", "SystemIO", "Input", "Daemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests of the pure modules build without any -dev package.
        .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "Pipeline", "Config", "TouchCore"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "Gestures", "Bindings"]),
        .testTarget(name: "BindingsTests", dependencies: ["Bindings", "Gestures", "TouchCore"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Reports", "Config", "Gestures", "Bindings", "TouchCore"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "Pipeline", "Reports", "Config", "Gestures", "TouchCore"]),
    ],
    swiftLanguageModes: [.v6]
)
