import Foundation
import HammockHarness

/// `hammock-bench ratio`: the dashboard against the C libcurl floor in interleaved runs, each
/// program alone, as the memory issue's own table was measured (min / median / max).
///
/// One 20 s window of each reads ±20 % from one minute to the next on a shared machine, and a
/// goal stated as a ratio (1,000 endpoints at most 2× the floor) then passes or fails by chance;
/// so five runs by default, each run's own ratio printed beside it. The floor's reading moves
/// more than the dashboard's with the machine's speed (its thousand transfers start at once).
/// Side by side is no cure: the floor costs more beside the dashboard than alone, for a reason
/// not established, which shifts the ratio towards the dashboard (docs/performance-journal.md).
/// CPU is read in nanoseconds (`ProcessSampler`): at 50 endpoints the floor spends two or three
/// 10 ms clock ticks in a window, too few to divide by.
enum FloorRatio {
    static func run(endpoints: Int, runs: Int) async throws {
        let hammock = Bench.binDirectory.appendingPathComponent("hammock").path
        guard TmuxHarness.tmuxAvailable, FileManager.default.isExecutableFile(atPath: hammock) else {
            throw TmuxHarness.Failure(description: "needs tmux and the hammock binary next to hammock-bench (swift build -c release)")
        }
        let seconds = 20.0
        let warmup = Bench.dashboardWarmup(quick: false)
        print("\(endpoints) endpoints every second, \(runs) interleaved run\(runs == 1 ? "" : "s") of each, \(Int(seconds)) s windows (hammock after \(Int(warmup)) s, the floor after 3 s)…")
        var dashboard: [Double] = []
        var floor: [Double] = []
        var ratios: [Double] = []
        for run in 1...runs {
            let own = try await EndToEndBench.dashboard(hammock: hammock, endpoints: endpoints, seconds: seconds, warmup: warmup)
            guard let other = try await EndToEndBench.cFloor(endpoints: endpoints, seconds: seconds) else {
                throw TmuxHarness.Failure(description: "no hammock-curl-floor next to hammock-bench: swift build -c release builds it")
            }
            dashboard.append(own.figures.cpuPercent)
            floor.append(other.figures.cpuPercent)
            // CPU a probe, not a second: the two need not make exactly as many probes. A floor
            // that read no CPU at all measured nothing: no ratio rather than a false one.
            let ratio: String
            if let mine = own.cpuMicrosecondsPerProbe, let theirs = other.cpuMicrosecondsPerProbe, theirs > 0 {
                ratios.append(mine / theirs)
                ratio = String(format: "%.2f× a probe", mine / theirs)
            } else {
                ratio = "no ratio"
            }
            let perProbe = { (result: EndToEndBench.Result) in result.cpuMicrosecondsPerProbe.map { String(format: "%.1f µs a probe", $0) } ?? "no probes" }
            print(String(
                format: "  run %d: hammock %.3f %% (%.0f probes/s, %@), floor %.3f %% (%.0f probes/s, %@), %@", run, own.figures.cpuPercent,
                own.probesPerSecond, perProbe(own) as NSString, other.figures.cpuPercent, other.probesPerSecond, perProbe(other) as NSString, ratio as NSString))
            if own.figures.fromTicks || other.figures.fromTicks {
                print(ProcessSampler.readInTicks("run"))
            }
        }
        print(line("hammock (dashboard under tmux)", dashboard))
        print(line("libcurl in C (floor)", floor))
        if let median = ratios.median {
            print(String(format: "  CPU a probe against the floor's, min / median / max  %.2f / %.2f / %.2f×", ratios.min() ?? 0, median, ratios.max() ?? 0))
        }
    }

    static func line(_ label: String, _ values: [Double]) -> String {
        String(format: "  %@  CPU min / median / max  %.3f / %.3f / %.3f %%", label as NSString, values.min() ?? 0, values.median ?? 0, values.max() ?? 0)
    }
}
