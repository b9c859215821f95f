import Foundation
import ResourceEngine

// The engine lives on the main actor: services, resources, observers and their callbacks.
// Top-level code in main.swift runs there; a type that holds a Service is marked @MainActor.
@MainActor
final class Watcher {
    let service: Service

    init(baseURL: String, every seconds: TimeInterval) {
        // Requests go through libcurl (CurlProvider), the default transport.
        service = Service(baseURL: baseURL)
        // Every resource: loaded when first watched, then every `seconds` while watched; a
        // failure retries after 1 s, 2 s, 4 s… up to `seconds`. Data with an ETag or a
        // Last-Modified is asked for conditionally: unchanged, it is NotModified, not NewData.
        service.configure { $0.refreshInterval = seconds }
    }

    func watch(_ path: String) {
        service.resource(path).addObserver(owner: self) { resource, event in
            let line = [path, event.externalName, resource.jsonDict["status"]?.string ?? "-", resource.latestError?.userMessage ?? ""]
            // Written at once, a line at a time (print would wait for a full buffer in a pipe).
            FileHandle.standardOutput.write(Data((line.joined(separator: " ") + "\n").utf8))
        }
    }
}

// Watcher [BASE-URL] [SECONDS]
let arguments = Array(CommandLine.arguments.dropFirst())
let watcher = Watcher(
    baseURL: arguments.first ?? "http://127.0.0.1:8000/", every: arguments.dropFirst().first.flatMap(Double.init) ?? 5)
watcher.watch("/status.json")
dispatchMain()  // the main queue runs the engine's callbacks and timers from here on
