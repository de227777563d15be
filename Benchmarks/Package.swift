// swift-tools-version:6.1
// Benchmarks of the pure core, kept out of its package so its build stays lean:
//   cd Benchmarks && swift package benchmark
import PackageDescription

let package = Package(
    name: "gestured-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../Core"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StepBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TouchCore", package: "Core"),
                .product(name: "Config", package: "Core"), .product(name: "ConfigParsing", package: "Core"),
                .product(name: "Pipeline", package: "Core"),
                .product(name: "Bindings", package: "Core"),
            ],
            path: "Benchmarks/StepBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
