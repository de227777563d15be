// swift-tools-version:6.1
// Benchmarks of the pure core, kept out of the main package so its build stays lean:
//   cd Benchmarks && swift package benchmark
import PackageDescription

// A path dependency is known by its directory's name, whatever the clone is called.
let core = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "gestured")

let package = Package(
    name: "gestured-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StepBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GesturedCore", package: core),
            ],
            path: "Benchmarks/StepBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
