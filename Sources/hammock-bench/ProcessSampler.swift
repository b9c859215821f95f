import Foundation
import Glibc

/// Samples a process's CPU time and resident memory from /proc, as the peers were measured.
///
/// CPU % of one core = Δ(utime + stime) / CLK_TCK over wall time; RSS from VmRSS.
struct ProcessSampler {
    struct Figures {
        let cpuPercent: Double
        let rssAverageMiB: Double
        let rssPeakMiB: Double
        let seconds: Double
        let rssSamples: [Double]
    }

    let pid: pid_t

    /// The clock ticks /proc counts CPU time in, per second (100: a tick is 10 ms).
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    func cpuTicks() -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state(0) … utime is field 14 of the whole line → index 11 here.
        guard fields.count > 12, let utime = Int(fields[11]), let stime = Int(fields[12]) else { return nil }
        return utime + stime
    }

    /// Seconds since the process started, from its start time in /proc (in clock ticks since
    /// boot, so to 10 ms) and /proc/uptime.
    func age() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            let uptime = (try? String(contentsOfFile: "/proc/uptime", encoding: .utf8))?.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // starttime is field 22 of the whole line → index 19 after the command.
        guard fields.count > 19, let start = Double(fields[19]) else { return nil }
        return uptime - start / Self.ticksPerSecond
    }

    func rssMiB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kb / 1024
    }

    /// The CPU time of several processes over one window: ticks each (user + system) and the
    /// window's length, so that both see the same seconds of the machine.
    static func cpuTicks(of pids: [pid_t], over seconds: Double) async -> (ticks: [Int], seconds: Double) {
        let samplers = pids.map { ProcessSampler(pid: $0) }
        let started = ContinuousClock.now
        let before = samplers.map { $0.cpuTicks() ?? 0 }
        try? await Task.sleep(for: .seconds(seconds))
        let after = samplers.map { $0.cpuTicks() }
        let elapsed = started.duration(to: .now)
        let ticks = zip(before, after).map { start, end in end.map { $0 - start } ?? 0 }
        return (ticks, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Samples every 250 ms for `seconds`.
    func measure(seconds: Double) -> Figures {
        let start = Date()
        let startTicks = cpuTicks() ?? 0
        var rss: [Double] = []
        while Date().timeIntervalSince(start) < seconds {
            if let value = rssMiB() { rss.append(value) }
            usleep(250_000)
        }
        let wall = Date().timeIntervalSince(start)
        let ticks = Double((cpuTicks() ?? startTicks) - startTicks)
        return Figures(
            cpuPercent: ticks / Self.ticksPerSecond / wall * 100,
            rssAverageMiB: rss.isEmpty ? 0 : rss.reduce(0, +) / Double(rss.count),
            rssPeakMiB: rss.max() ?? 0, seconds: wall, rssSamples: rss)
    }
}
