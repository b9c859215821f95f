// swift-tools-version:6.0
// A watcher on Hammock's engine, as a package of one's own depends on it: by path here; by URL
// and version elsewhere. Build and run: `swift run Watcher http://127.0.0.1:8000/ 5` beside
// `python3 -m http.server` serving a folder with a `status.json`.
import PackageDescription

let package = Package(
    name: "Watcher",
    dependencies: [.package(name: "Hammock", path: "../..")],
    targets: [
        .executableTarget(
            name: "Watcher",
            dependencies: [.product(name: "ResourceEngine", package: "Hammock")])
    ]
)
