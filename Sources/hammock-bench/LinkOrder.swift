import Foundation
import Glibc
import HammockHarness

/// `hammock-bench link-order`: writes `Sources/hammock/hammock.order`, the functions a running
/// dashboard executes, which the linker packs together (Package.swift, docs/performance-journal.md).
///
/// Runs the release `hammock` under callgrind, which records every function executed, not a
/// sample: the bench's 50 endpoints through a minute of keys (zoom and its views, help, sort,
/// filter, reload, pause), then `hammock demo` through the same. A function left out costs its
/// neighbourhood of the binary in memory; one no longer built is ignored by the linker.
enum LinkOrder {
    /// Keys pressed in each run, with a pause after each, so their code is in the order too.
    static let keys = ["j", "j", "Enter", "2", "3", "4", "5", "1", "Escape", "?", "Escape", "s", "s", "/", "E", "1",
                       "Enter", "Escape", "r", "R", "p", "p", "Tab", "z", "z", "Escape", "End", "Home"]

    static func run(output: String) async throws {
        let work = URL(fileURLWithPath: ScratchDirectory.path("link-order"))
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let (valgrind, copy) = try Callgrind.ready(in: work, for: "link-order")
        let functions = try functionSymbols(in: copy)

        let server = try await EndToEndBench.startServer()
        let config = try EndToEndBench.config(endpoints: 50, baseURL: server.baseURL)
        defer { try? FileManager.default.removeItem(atPath: config) }
        // Runs in order of importance: the linker places sections in the order their first listed
        // function appears, so a plain dashboard's functions come first and the demo server's after.
        var runs: [Set<String>] = []
        for (name, arguments) in [("bench", "'\(config)'"), ("demo", "demo")] {
            print("callgrind: hammock \(name)…")
            let profile = work.appendingPathComponent("\(name).callgrind").path
            let tmux = try Callgrind.start(valgrind: valgrind, hammock: copy, arguments: arguments, profile: profile, options: "--demangle=no")
            try await Task.sleep(for: .seconds(20))
            for key in keys {
                try tmux.sendKeys(key)
                try await Task.sleep(for: .seconds(1.5))
            }
            try await Task.sleep(for: .seconds(10))
            try tmux.sendKeys("q")
            _ = try tmux.waitForLine(timeout: 120, "exit") { $0.hasPrefix("exit") }
            runs.append(try executedFunctions(profile: profile, object: copy).intersection(functions))
        }
        await server.stop()

        var ordered: [String] = []
        var listed = Set<String>()
        for run in runs {
            ordered += run.subtracting(listed).sorted()
            listed.formUnion(run)
        }
        let header = """
            # Functions a running hammock executes, packed together by the linker (Package.swift): those of a
            # dashboard polling 50 endpoints first, then those only `hammock demo` adds.
            # Written by `hammock-bench link-order` from a release build; see docs/performance-journal.md.

            """
        try (header + ordered.joined(separator: "\n") + "\n").write(toFile: output, atomically: true, encoding: .utf8)
        print("\(ordered.count) functions → \(output)")
        // SwiftPM does not know the list is a link input.
        print("to link with it: rm .build/*/hammock && swift build -c release --static-swift-stdlib")
    }

    /// The names of the functions defined in `binary` (`nm`'s t, T, w and W symbols).
    static func functionSymbols(in binary: String) throws -> Set<String> {
        let listed = try ProcessRunner.captureBlocking(["nm", "--defined-only", binary], timeout: 120)
        guard listed.status == 0 else { throw TmuxHarness.Failure(description: "nm failed: \(listed.output)") }
        var names = Set<String>()
        for line in listed.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, ["t", "T", "w", "W"].contains(fields[1]) { names.insert(String(fields[2])) }
        }
        return names
    }

    /// The functions of `object` that a callgrind profile saw executed.
    ///
    /// The format compresses names: `ob=(3) /path` and `fn=(12) name` define a number the first
    /// time and use it alone afterwards; `cob=`/`cfn=` (callees) define numbers the same way. A
    /// recursive call gets a `'2` suffix.
    static func executedFunctions(profile: String, object: String) throws -> Set<String> {
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        var objects: [Substring: Substring] = [:]
        var functions: [Substring: Substring] = [:]
        var inObject = false
        var executed = Set<String>()
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), line[line.index(after: equals)...].hasPrefix("(") else { continue }
            let key = line[..<equals]
            let rest = line[line.index(equals, offsetBy: 2)...]
            guard let close = rest.firstIndex(of: ")") else { continue }
            let id = rest[..<close]
            let name = rest[rest.index(after: close)...].drop(while: { $0 == " " })
            switch key {
            case "ob", "cob":
                if !name.isEmpty { objects[id] = name }
                if key == "ob" { inObject = objects[id] == Substring(object) }
            case "fn", "cfn":
                if !name.isEmpty { functions[id] = name }
                if key == "fn", inObject, var function = functions[id] {
                    if let quote = function.lastIndex(of: "'"), function[function.index(after: quote)...].allSatisfy(\.isNumber) {
                        function = function[..<quote]
                    }
                    executed.insert(String(function))
                }
            default:
                continue
            }
        }
        return executed
    }
}
