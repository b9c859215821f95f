import Foundation
import Glibc
import HammockHarness

/// `hammock-bench compare`: two builds of `hammock` as dashboards at once against one origin,
/// each with its own cache, measured over the same window, so both see the same machine.
///
/// One program alone reads ±20 % from one minute to the next on a shared machine, more than most
/// levers give; two at once read within ±5 % of each other when they are the same binary
/// (docs/performance-journal.md). Each pair starts the two in the other order from the pair before, and the
/// candidate's CPU over the baseline's is printed per pair and as the median of the pairs.
enum SideBySide {
    struct Options {
        var baseline: String
        var candidate: String
        var endpoints = 1000
        var pairs = 4
        var warmup = 60.0
        var seconds = 30.0
        /// `KEY=VALUE` settings for one side only (an allocator's `MALLOC_CONF`, say).
        var baselineEnvironment: [String: String] = [:]
        var candidateEnvironment: [String: String] = [:]
    }

    static func run(_ options: Options) async throws {
        for binary in [options.baseline, options.candidate] where !FileManager.default.isExecutableFile(atPath: binary) {
            throw TmuxHarness.Failure(description: "\(binary) is not an executable hammock build")
        }
        guard TmuxHarness.tmuxAvailable else { throw TmuxHarness.Failure(description: "compare needs tmux") }
        let server = try await EndToEndBench.startServer()
        do {
            try await pairs(options, server: server)
            await server.stop()
        } catch {
            // nginx is a process of its own: stopped on every way out.
            await server.stop()
            throw error
        }
    }

    private static func pairs(_ options: Options, server: BenchOrigin) async throws {
        let config = try EndToEndBench.config(endpoints: options.endpoints, baseURL: server.baseURL)
        defer { try? FileManager.default.removeItem(atPath: config) }
        print("""
            \(options.endpoints) endpoints every second, both dashboards at once, \(options.pairs) pair\(options.pairs == 1 ? "" : "s"), \
            \(Int(options.seconds)) s windows after \(Int(options.warmup)) s
              baseline  \(options.baseline)\(describe(options.baselineEnvironment))
              candidate \(options.candidate)\(describe(options.candidateEnvironment))
            """)
        var ratios: [Double] = []
        for pair in 1...options.pairs {
            let candidateFirst = pair % 2 == 0
            let sides = [(options.baseline, options.baselineEnvironment), (options.candidate, options.candidateEnvironment)]
            let order = candidateFirst ? [sides[1], sides[0]] : sides
            let first = try EndToEndBench.DashboardRun(hammock: order[0].0, config: config, environment: order[0].1)
            let second: EndToEndBench.DashboardRun
            do {
                second = try EndToEndBench.DashboardRun(hammock: order[1].0, config: config, environment: order[1].1)
            } catch {
                first.stop()
                throw error
            }
            defer {
                first.stop()
                second.stop()
            }
            try await Task.sleep(for: .seconds(options.warmup))
            _ = await server.probes()
            let window = await ProcessSampler.cpuTime(of: [first.pid, second.pid], over: options.seconds)
            let probes = Double(await server.probes()) / window.seconds
            let cpu = candidateFirst ? (baseline: window.cpu[1], candidate: window.cpu[0]) : (baseline: window.cpu[0], candidate: window.cpu[1])
            let (baseline, candidate) = (cpu.baseline / window.seconds * 100, cpu.candidate / window.seconds * 100)
            guard baseline > 0, candidate > 0 else {
                print("  pair \(pair): a dashboard read no CPU (it stopped?); no ratio")
                continue
            }
            ratios.append(candidate / baseline)
            print(String(
                format: "  pair %d (%@ started first): baseline %.2f %%, candidate %.2f %%, candidate/baseline %.3f (%.0f probes/s of %d)",
                pair, (candidateFirst ? "candidate" : "baseline") as NSString, baseline, candidate, candidate / baseline, probes,
                2 * options.endpoints))
            if window.fromTicks {
                print(ProcessSampler.readInTicks("pair"))
            }
        }
        guard let median = ratios.median else { throw TmuxHarness.Failure(description: "no pair gave a ratio") }
        print(String(
            format: "  candidate/baseline min / median / max  %.3f / %.3f / %.3f (median %+.1f %%), %d of %d pairs below 1",
            ratios.min() ?? 0, median, ratios.max() ?? 0, (median - 1) * 100, ratios.filter { $0 < 1 }.count, ratios.count))
        print("  (two copies of one build read within ±5 % of each other this way: a change inside that needs many pairs)")
    }

    /// Parses `KEY=VALUE`; nil when there is no `=` or no key.
    static func setting(_ text: String) -> (String, String)? {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    private static func describe(_ environment: [String: String]) -> String {
        environment.isEmpty ? "" : " with " + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
