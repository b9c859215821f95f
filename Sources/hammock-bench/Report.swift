import Foundation
import HammockHarness

/// Writes the results as docs/benchmarks.md, with the machine and the command.
enum Report {
    static func markdown(
        rows: [Row], endToEnd: [EndToEndBench.Result], startUp: [(panes: Int, seconds: Double)], seconds: Double, warmup: Double, hammock: String
    ) -> String {
        let isStatic = Linkage.isStatic(executable: hammock)
        let build = isStatic ? "-c release --static-swift-stdlib" : "-c release"
        let command = (["hammock-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        let origin = Bench.origin == .nginx
            ? "Debian's nginx (one worker, `return 200` with the same JSON body) on 127.0.0.1"
            : "FlyingFox server on 127.0.0.1 in the benchmark process"
        var text = """
            # Benchmarks

            Measured by `swift build \(build) && .build/release/\(command)` (release build,
            \(isStatic ? "Swift runtime linked statically" : "Swift runtime linked dynamically")) on \(machine()).
            \(orderLine(hammock: hammock))\(exportLine(hammock: hammock))
            The binary: \((try? BinarySize.measure(hammock))?.summary ?? "not measured").
            Figures from one run; rerun the command to reproduce.

            ## Engine and screen (in process)

            | area | what | figure | target (DESIGN.md) |
            | --- | --- | --- | --- |

            """
        for row in rows { text += "| \(row.area) | \(row.what) | \(row.figure) | \(row.target) |\n" }
        text += """

            ## End to end: polling N endpoints every second

            The real `hammock` dashboard runs under tmux at 200×60, drawing for real, against a
            \(origin); every pane refreshes every
            second (`every: 1s`, `expiration: 500ms`). Only the `hammock` process is measured, from
            `/proc` every 250 ms over \(Int(seconds)) s, after a \(Int(warmup)) s warm-up for hammock (its memory
            settles as probe histories fill) and 3 s for the others: CPU % of one core =
            Δ(on-CPU nanoseconds, summed over `/proc/PID/task/*/schedstat`) over wall time (10 ms
            clock ticks, marked "(ticks)", only when a thread ended inside the window); RSS from
            VmRSS; probes/s counted at the
            server. `hammock serve` (the same panes without a screen, serving `/metrics`, as
            blackbox_exporter does) is measured like the dashboard, after the same warm-up.
            Four floors make the same requests at the same rate and do nothing else:
            `hammock-curl-floor` (libcurl's multi interface in C, handles reused), the same loop in
            Swift without Foundation (`hammock-swift-floor`: what the Swift runtime adds), a plain
            loop over `CurlProvider` (hammock's own transport) and a plain URLSession loop. CPU per probe is
            CPU time over probes; allocations per probe are counted in a separate 5 s run with
            `libHammockMallocCount.so` preloaded (malloc, calloc, realloc and the aligned allocators).
            The idle row is the same dashboard with 50 panes that refresh every 10 minutes, measured
            after a 65 s warm-up: by then every data age reads in minutes, so it only wakes when the
            header's minute or an age changes.

            | program | endpoints | CPU (% of one core) | RSS avg / peak | probes/s | CPU per probe | allocations per probe |
            | --- | --- | --- | --- | --- | --- | --- |

            """
        for result in endToEnd {
            text += String(format: "| %@ | %d | %.2f %%%@ | %.1f / %.1f MiB | %.1f | ", result.label as NSString, result.endpoints, result.figures.cpuPercent, (result.figures.fromTicks ? " (ticks)" : "") as NSString, result.figures.rssAverageMiB, result.figures.rssPeakMiB, result.probesPerSecond)
            text += (result.cpuMicrosecondsPerProbe.map { String(format: "%.1f µs", $0) } ?? "") + " | "
            text += (result.allocationsPerProbe.map { String(format: "%.0f", $0) } ?? "") + " |\n"
        }
        text += """

            The monit and blackbox_exporter rows (when installed) are measured in the same run: monit
            checks its hosts one after another each cycle, so past a few hundred endpoints it makes
            fewer probes than asked (its probes/s says so); blackbox_exporter is asked by the C floor
            as Prometheus would ask it. DESIGN's bar for Hammock: at most 2 % of one core and 20 MiB
            resident for 50 endpoints polled every second; idle CPU 0; 1,000 endpoints must work. The
            memory issue's goals: RSS ≤ 20 MiB and CPU ≤ monit's at 50; at 1,000 CPU ≤ 2× the C floor
            and RSS ≤ 50 MiB; 5,000 probes/s; CPU per probe ≤ 100 µs (see docs/performance-journal.md for where it
            stands and why).

            """
        if !startUp.isEmpty {
            text += """

                ## Start-up: time to the first frame

                `hammock CONFIG` under tmux at 200×60 with an empty cache, panes refreshing every minute:
                from the process's start (its start time in `/proc`, to 10 ms) to its first frame, the
                median of three starts. The config is read and checked, every pane is built and drawn;
                loads start after the first frame, a batch per main-queue turn, so keys and signals are
                answered throughout.

                | panes | first frame | target |
                | --- | --- | --- |

                """
            for (panes, seconds) in startUp {
                let target = panes <= 1000 ? "under 100 ms (DESIGN.md)" : "well under 1 s (truth issue)"
                text += String(format: "| %d | %.0f ms | %@ |\n", panes, seconds * 1000, target as NSString)
            }
        }
        return text
    }

    /// How well the binary's packed functions match hammock.order (docs/performance-journal.md).
    static func orderLine(hammock: String) -> String {
        guard let coverage = Linkage.orderCoverage(executable: hammock) else {
            return "No Sources/hammock/hammock.order here (run from the package root) to check the packing against."
        }
        let stale = coverage.found * 10 < coverage.listed * 9 ? " — stale: rerun `hammock-bench link-order`" : ""
        return "Packed functions: \(coverage.found) of the \(coverage.listed) listed in Sources/hammock/hammock.order are in this binary\(stale)."
    }

    /// What the binary exports beyond jemalloc's `malloc_conf` (nothing, when linked as Package.swift says).
    static func exportLine(hammock: String) -> String {
        guard let exported = Linkage.exportedSymbols(executable: hammock) else { return "" }
        let extra = exported.filter { $0 != "malloc_conf" }
        return extra.isEmpty
            ? " It exports no symbol of its own."
            : " It exports \(extra.count) symbols of its own — more pages resident: check the linker flags in Package.swift."
    }

    static func machine() -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let swift = (try? ProcessRunner.captureBlocking(["swift", "--version"], timeout: 30))?.output
            .split(separator: "\n").first.map(String.init) ?? "Swift"
        return "\(cores) cores (\(cpu)), \(String(format: "%.0f", memory)) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString), \(swift)"
    }
}
