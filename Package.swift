// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

// The hammock binary is linked by lld with the functions a running dashboard executes packed together
// (Sources/hammock/hammock.order, written by `hammock-bench link-order`) and relative relocations
// packed (RELR), and none of its own symbols exported (the static Swift toolchain links with
// -export-dynamic): fewer pages of the binary are touched at start and while it runs (DECISIONS §17).
let packageRoot = String(#filePath.dropLast("Package.swift".count))
let hammockLinking: [LinkerSetting] = [
    // jemalloc in place of glibc's malloc (Debian's libjemalloc-dev): a tenth to an eighth less CPU
    // per probe at 1,000–2,000 endpoints (DECISIONS §17); its settings are in Sources/CMallocConf.
    .linkedLibrary("jemalloc", .when(platforms: [.linux])),
    .unsafeFlags(
        [
            "-use-ld=lld",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--symbol-ordering-file=\(packageRoot)Sources/hammock/hammock.order",
            "-Xlinker", "--no-warn-symbol-ordering",
            "-Xlinker", "--no-export-dynamic",
        ],
        .when(platforms: [.linux]))
]

let package = Package(
    name: "Hammock",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ResourceEngine", targets: ["ResourceEngine"]),
        .library(name: "ResourceEngineTesting", targets: ["ResourceEngineTesting"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "CursesBackend", targets: ["CursesBackend"]),
        .library(name: "CurlNetworking", targets: ["CurlNetworking"]),
        .library(name: "DashboardConfig", targets: ["DashboardConfig"]),
        .library(name: "Dashboard", targets: ["Dashboard"]),
        .library(name: "DemoServer", targets: ["DemoServer"]),
        .executable(name: "hammock", targets: ["hammock"]),
        .executable(name: "terminal-demo", targets: ["terminal-demo"]),
        .executable(name: "hammock-bench", targets: ["hammock-bench"]),
        .executable(name: "hammock-curl-floor", targets: ["hammock-curl-floor"]),
        .executable(name: "hammock-swift-floor", targets: ["hammock-swift-floor"]),
        // Preloaded by the bench to count allocations per probe.
        .library(name: "HammockMallocCount", type: .dynamic, targets: ["CMallocCount"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(name: "ResourceEngine", swiftSettings: strict),
        // posix_spawn with a clean signal state: the pager, alert commands, the tests' processes.
        .target(name: "CleanSpawn", swiftSettings: strict),
        // FlyingFox servers on 127.0.0.1 with Nagle off, started without waiting out a timeout.
        .target(
            name: "LoopbackHTTP",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: strict),
        // The demo API and its config: only `hammock demo` and the tests link an HTTP server.
        .target(
            name: "DemoServer",
            dependencies: [
                "ResourceEngine", "LoopbackHTTP",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: strict),
        .target(
            name: "ResourceEngineTesting",
            dependencies: [
                "ResourceEngine", "LoopbackHTTP", "CleanSpawn",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: strict
        ),
        .target(name: "TerminalUI", swiftSettings: strict),
        .target(
            name: "DashboardConfig",
            dependencies: ["ResourceEngine", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict),
        .testTarget(
            name: "DashboardConfigTests",
            dependencies: ["DashboardConfig", "DemoServer", "ResourceEngine", "ResourceEngineTesting"],
            swiftSettings: strict),
        .target(
            name: "Dashboard",
            dependencies: ["ResourceEngine", "TerminalUI", "DashboardConfig", "CleanSpawn"],
            swiftSettings: strict),
        // `/metrics`, `/healthz` and `/api/panes` over a running dashboard (`hammock serve`), on
        // SwiftNIO: a connection cap, timeouts, back-pressure and accept back-off (DECISIONS §22).
        .target(
            name: "MetricsServer",
            dependencies: [
                "Dashboard", "ResourceEngine", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DashboardTests",
            dependencies: [
                "Dashboard", "DashboardConfig", "DemoServer", "ResourceEngine", "ResourceEngineTesting", "TerminalUI",
                "CurlNetworking", "MetricsServer",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .systemLibrary(
            name: "CNCursesW", path: "Modules/CNCursesW",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        .target(name: "CMallocConf"),
        .target(name: "CTerminalRestore"),
        .target(name: "CursesBackend", dependencies: ["CNCursesW", "CTerminalRestore", "TerminalUI", "CleanSpawn"], swiftSettings: strict),
        .systemLibrary(
            name: "CCurl", path: "Modules/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .target(name: "CurlNetworking", dependencies: ["CCurl", "ResourceEngine"], swiftSettings: strict),
        .executableTarget(
            name: "hammock",
            dependencies: [
                "Dashboard", "DashboardConfig", "DemoServer", "CursesBackend", "CurlNetworking", "TerminalUI", "CMallocConf",
                "MetricsServer", "ResourceEngine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["hammock.order"],
            swiftSettings: strict,
            linkerSettings: hammockLinking),
        .testTarget(
            name: "HammockCLITests",
            dependencies: ["Dashboard", "DashboardConfig", "DemoServer", "LoopbackHTTP", "ResourceEngine", "ResourceEngineTesting"],
            swiftSettings: strict),
        .executableTarget(
            name: "hammock-bench",
            dependencies: [
                "CurlNetworking", "Dashboard", "DashboardConfig", "ResourceEngine", "ResourceEngineTesting", "TerminalUI",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict),
        // The bench's floors: libcurl alone polling N endpoints (in C, and in Swift below), and an allocation counter.
        .executableTarget(name: "hammock-curl-floor", linkerSettings: [.linkedLibrary("curl")]),
        // The same loop in Swift without Foundation: what the Swift runtime adds to libcurl's floor.
        .executableTarget(name: "hammock-swift-floor", dependencies: ["CCurl"], swiftSettings: strict),
        .target(name: "CMallocCount"),
        .executableTarget(name: "terminal-demo", dependencies: ["CursesBackend", "TerminalUI"], swiftSettings: strict),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "TerminalUI", "ResourceEngineTesting"], swiftSettings: strict),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"], swiftSettings: strict),
        .testTarget(
            name: "CurlNetworkingTests",
            dependencies: [
                "CurlNetworking", "ResourceEngine", "ResourceEngineTesting",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ResourceEngineTests",
            dependencies: [
                "ResourceEngine", "ResourceEngineTesting", "CurlNetworking",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict
        ),
    ]
)
