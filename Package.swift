// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    // A module's members are visible only where it is imported: declared and imported dependencies match.
    .enableUpcomingFeature("MemberImportVisibility"),
]

// The release build gives every function a section of its own, so that the linker's identical-code
// folding (--icf=all below) can merge the many equal specializations and thunks Swift emits and
// --gc-sections can drop what nothing calls (DECISIONS §29: 20.7 -> 20.25 MB stripped). Only
// targets outside the library products: a product with unsafe flags cannot be a dependency. The
// shipped binary (scripts/install.sh, build-deb.sh) is built with packaging/release-toolset.json,
// which asks the same of every module, the engine and the dependencies too (19.36 MB).
let sectioned: [SwiftSetting] = strict + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
// Modules no probe, frame or start-up runs through (the demo, process spawning) are optimised for size.
let sectionedSmall: [SwiftSetting] = strict + [.unsafeFlags(["-Xfrontend", "-function-sections", "-Osize"], .when(configuration: .release))]

// The hammock binary is linked by lld with the functions a running dashboard executes packed together
// (Sources/hammock/hammock.order, written by `hammock-bench link-order`) and relative relocations
// packed (RELR), and none of its own symbols exported (the static Swift toolchain links with
// -export-dynamic): fewer pages of the binary are touched at start and while it runs (docs/performance-journal.md).
let packageRoot = String(#filePath.dropLast("Package.swift".count))
let hammockLinking: [LinkerSetting] = [
    // jemalloc in place of glibc's malloc (Debian's libjemalloc-dev): a tenth to an eighth less CPU
    // per probe at 1,000–2,000 endpoints (docs/performance-journal.md); its settings are in Sources/CMallocConf.
    .linkedLibrary("jemalloc", .when(platforms: [.linux])),
    .unsafeFlags(
        [
            "-use-ld=lld",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--symbol-ordering-file=\(packageRoot)Sources/hammock/hammock.order",
            "-Xlinker", "--no-warn-symbol-ordering",
            "-Xlinker", "--no-export-dynamic",
            "-Xlinker", "--icf=all",
        ],
        .when(platforms: [.linux]))
]

let flyingFox: [Target.Dependency] = [
    .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox"),
]
let flyingFoxOnly: Target.Dependency = .product(name: "FlyingFox", package: "FlyingFox")
let nio: [Target.Dependency] = [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")]

// Built and tested on Linux only (Glibc, libcurl, ncurses from Debian): no other platform is claimed.
// ARCHITECTURE.md draws the targets below and the arrows between them; Tests/ArchitectureTests keeps them.
let package = Package(
    name: "Hammock",
    products: [
        // What a user installs: the program, and the engine (with its libcurl transport) and doubles for a
        // Swift program of one's own. The bench and the floors build as the root package's
        // executables (`swift build -c release`); the allocation counter is a product only because
        // SwiftPM builds a dynamic library only as one (the bench preloads it).
        .executable(name: "hammock", targets: ["hammock"]),
        .library(name: "ResourceEngine", targets: ["ResourceEngine"]),
        .library(name: "ResourceEngineTesting", targets: ["ResourceEngineTesting"]),
        .library(name: "URLSessionNetworking", targets: ["URLSessionNetworking"]),
        .library(name: "HammockMallocCount", type: .dynamic, targets: ["CMallocCount"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // `swift package generate-documentation --target ResourceEngine`: the engine's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: The engine and its transport
        // Files only their owner can read (0600 in 0700 directories): the cache, histories, the log.
        .target(name: "PrivateFiles", swiftSettings: strict),
        // What the binary used of NSString, on the standard and C libraries: trimming,
        // percent-encoding, printf-style numbers (no module of the binary links full Foundation).
        .target(name: "TextBasics", swiftSettings: strict),
        .systemLibrary(name: "CCurl", path: "Modules/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The engine and its default transport, libcurl (CurlProvider, under Networking/Curl).
        .target(name: "ResourceEngine", dependencies: ["PrivateFiles", "TextBasics", "CCurl"], swiftSettings: strict),
        // The engine's doubles: fake networking, a manual clock, a recording observer.
        .target(name: "ResourceEngineTesting", dependencies: ["ResourceEngine"], swiftSettings: strict),
        // The engine over Foundation's URLSession: a transport the shipped binary does not link
        // (it brings FoundationNetworking); the tests run the engine over both.
        .target(name: "URLSessionNetworking", dependencies: ["ResourceEngine"], swiftSettings: strict),

        // MARK: The terminal
        .target(name: "TerminalUI", swiftSettings: sectioned),
        .systemLibrary(name: "CNCursesW", path: "Modules/CNCursesW", providers: [.apt(["libncurses-dev"])]),
        .target(name: "CTerminalRestore"),
        .target(name: "CursesBackend", dependencies: ["CNCursesW", "CTerminalRestore", "TerminalUI", "CleanSpawn"], swiftSettings: sectioned),

        // MARK: Config and the dashboard
        // posix_spawn with a clean signal state and declared standard streams: the pager, alert
        // commands, the harness's processes.
        .target(name: "CleanSpawn", swiftSettings: sectionedSmall),
        // The one path every output takes to lose its secrets (screen, logs, snapshot, cache, events).
        .target(name: "Redaction", dependencies: ["ResourceEngine", "TextBasics"], swiftSettings: sectioned),
        // What each key does where, and how the help, the footer and README name them: below the
        // config, which reads `keys:` into it, and the dashboard, which acts on it.
        .target(name: "DashboardKeys", dependencies: ["TerminalUI"], swiftSettings: sectioned),
        // libyaml's parser (Debian's libyaml-dev), under the config's own node reader.
        .systemLibrary(name: "CYAML", path: "Modules/CYAML", providers: [.apt(["libyaml-dev"])]),
        .target(
            name: "DashboardConfig", dependencies: ["ResourceEngine", "Redaction", "DashboardKeys", "TerminalUI", "TextBasics", "CYAML"],
            swiftSettings: sectioned),
        // What a probe means, below every screen: cadence, verdicts, alerts, histories, the event
        // log, the metrics and JSON state (the dashboard, serve, events and snapshot sit on it).
        .target(
            name: "Monitor", dependencies: ["ResourceEngine", "Redaction", "DashboardConfig", "CleanSpawn", "PrivateFiles", "TextBasics"], swiftSettings: sectioned),
        .target(
            name: "Dashboard", dependencies: ["ResourceEngine", "Redaction", "TerminalUI", "DashboardKeys", "DashboardConfig", "Monitor", "TextBasics"],
            swiftSettings: sectioned),
        // `/metrics`, `/healthz` and `/api/panes` over a running dashboard (`hammock serve`), on
        // SwiftNIO: a connection cap, timeouts, back-pressure and accept back-off (DECISIONS §22).
        .target(
            name: "MetricsServer",
            dependencies: ["Monitor", "ResourceEngine", .product(name: "NIOHTTP1", package: "swift-nio")] + nio,
            swiftSettings: sectioned),
        // FlyingFox servers on 127.0.0.1 with Nagle off, started without waiting out a timeout.
        .target(name: "LoopbackHTTP", dependencies: flyingFox, swiftSettings: strict),
        // The demo API and its config, on SwiftNIO's HTTP/1.1 server.
        .target(
            name: "DemoServer", dependencies: ["PrivateFiles", "ResourceEngine", "TextBasics", .product(name: "NIOHTTP1", package: "swift-nio")] + nio,
            swiftSettings: sectionedSmall),

        // MARK: The program
        .target(name: "CMallocConf"),
        .executableTarget(
            name: "hammock",
            dependencies: [
                "Dashboard", "DashboardConfig", "DashboardKeys", "DemoServer", "CursesBackend", "TerminalUI", "CMallocConf",
                "MetricsServer", "Monitor", "PrivateFiles", "Redaction", "ResourceEngine", "TextBasics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["hammock.order"],
            swiftSettings: sectioned,
            linkerSettings: hammockLinking),
        .executableTarget(name: "terminal-demo", dependencies: ["CursesBackend", "TerminalUI"], swiftSettings: strict),

        // MARK: The wing: test support and tools
        // Servers on 127.0.0.1 (FlyingFox, raw sockets, Python, Prometheus), processes, tmux, scratch directories.
        .target(name: "HammockHarness", dependencies: ["LoopbackHTTP", "CleanSpawn"] + flyingFox, swiftSettings: strict),
        // The dashboard headless under test: the manual scheduler and one harness over fake or real networking.
        .target(
            name: "DashboardTesting",
            dependencies: ["Dashboard", "DashboardConfig", "Monitor", "ResourceEngine", "ResourceEngineTesting", "TerminalUI"],
            swiftSettings: strict),
        .executableTarget(
            name: "hammock-bench",
            dependencies: [
                "CleanSpawn", "Dashboard", "DashboardConfig", "DashboardTesting", "HammockHarness", "LoopbackHTTP", "Monitor", "ResourceEngine",
                "ResourceEngineTesting", "TerminalUI", .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict),
        // The bench's floors: libcurl alone polling N endpoints (in C, and in Swift below), and an allocation counter.
        .executableTarget(name: "hammock-curl-floor", linkerSettings: [.linkedLibrary("curl")]),
        // The same loop in Swift without Foundation: what the Swift runtime adds to libcurl's floor.
        .executableTarget(name: "hammock-swift-floor", dependencies: ["CCurl"], swiftSettings: strict),
        .target(name: "CMallocCount"),

        // MARK: Tests: each target's own, over its doubles; real I/O through the harness
        .testTarget(
            name: "ResourceEngineTests", dependencies: ["ResourceEngine", "ResourceEngineTesting", "TextBasics", "HammockHarness", "LoopbackHTTP", flyingFoxOnly],
            swiftSettings: strict),
        // The engine over both real transports (URLSession and libcurl) against servers on 127.0.0.1.
        .testTarget(
            name: "TransportTests",
            dependencies: ["ResourceEngine", "ResourceEngineTesting", "URLSessionNetworking", "HammockHarness", "LoopbackHTTP", flyingFoxOnly],
            swiftSettings: strict),
        .testTarget(
            name: "CurlNetworkingTests",
            dependencies: ["ResourceEngine", "ResourceEngineTesting", "HammockHarness", "LoopbackHTTP", flyingFoxOnly],
            swiftSettings: strict),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"], swiftSettings: strict),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "TerminalUI", "HammockHarness"], swiftSettings: strict),
        .testTarget(
            name: "DashboardConfigTests",
            dependencies: [
                "DashboardConfig", "DashboardKeys", "Redaction", "ResourceEngine", "ResourceEngineTesting", "HammockHarness", "TerminalUI",
                // The reader Hammock used before libyaml's own, for the differential test.
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "DashboardTests",
            dependencies: [
                "Dashboard", "DashboardConfig", "DashboardKeys", "DashboardTesting", "DemoServer", "Monitor", "Redaction", "ResourceEngine", "ResourceEngineTesting",
                "HammockHarness", "LoopbackHTTP", "TerminalUI", "MetricsServer", flyingFoxOnly,
            ] + nio,
            swiftSettings: strict),
        .testTarget(
            name: "HammockCLITests",
            dependencies: [
                "Dashboard", "DashboardConfig", "DemoServer", "LoopbackHTTP", "Monitor", "ResourceEngine", "ResourceEngineTesting", "HammockHarness",
            ]
                + flyingFox,
            swiftSettings: strict),
        .testTarget(
            name: "MonitorTests",
            dependencies: ["Monitor", "DashboardConfig", "Redaction", "ResourceEngine", "ResourceEngineTesting", "HammockHarness"],
            swiftSettings: strict),
        .testTarget(name: "RedactionTests", dependencies: ["Redaction", "ResourceEngine", "HammockHarness"], swiftSettings: strict),
        // ARCHITECTURE.md's table against Package.swift and every import.
        .testTarget(name: "ArchitectureTests", dependencies: ["HammockHarness"], swiftSettings: strict),
        .testTarget(name: "HammockHarnessTests", dependencies: ["HammockHarness", "ResourceEngineTesting"], swiftSettings: strict),
    ]
)
