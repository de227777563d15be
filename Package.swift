// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        // The pure core, for the benchmarks in Benchmarks/.
        .library(name: "GesturedCore", targets: ["TouchCore", "Gestures", "Config"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System libraries, found with pkg-config; the providers name the Debian packages.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Linux system calls Glibc's module leaves out (epoll, timerfd, signalfd).
        .target(name: "CLinux"),

        // The pure core: no I/O, no C imports. Time is passed in.
        .target(name: "TouchCore"),
        .target(name: "Gestures", dependencies: ["TouchCore", .product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "Bindings", dependencies: ["Gestures", "TouchCore"]),
        .target(
            name: "Config",
            dependencies: ["Gestures", "Bindings", "TouchCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),

        // Everything that touches the operating system: files, devices, processes.
        .target(
            name: "GesturedKit",
            dependencies: [
                "TouchCore", "Gestures", "Bindings", "Config", "CLinux", "CEvdev", "CUdev", "CSystemd",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "gestured",
            dependencies: [
                "GesturedKit", "TouchCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "TouchCore"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "Gestures", "Bindings"]),
        .testTarget(name: "GesturedKitTests", dependencies: ["GesturedKit", "Config", "Gestures", "TouchCore"]),
    ],
    swiftLanguageModes: [.v6]
)
