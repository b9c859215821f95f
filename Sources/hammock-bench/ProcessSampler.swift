import Foundation
import Glibc

/// Samples a process's CPU time and resident memory from /proc, as the peers were measured.
///
/// CPU % of one core = Δ(on-CPU time) over wall time; RSS from VmRSS. On-CPU time is the sum of
/// every thread's nanoseconds in `/proc/PID/task/*/schedstat`: `utime + stime` counts 10 ms
/// ticks, and a program near the floor spends only a few of them in a window. A thread that
/// ends inside the window takes its nanoseconds with it, so then the ticks are read instead.
struct ProcessSampler {
    struct Figures {
        let cpuPercent: Double
        /// Whether the CPU figure came from the clock ticks (a thread ended in the window).
        var fromTicks = false
        let rssAverageMiB: Double
        let rssPeakMiB: Double
        let seconds: Double
        let rssSamples: [Double]
    }

    let pid: pid_t

    /// Said under a run or pair whose CPU the ticks had to stand in for.
    static func readInTicks(_ what: String) -> String {
        "    (a thread ended inside the window, so this \(what) was read in 10 ms clock ticks, coarsely)"
    }

    /// The clock ticks /proc counts CPU time in, per second (100: a tick is 10 ms).
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// One reading of the process's CPU time: nanoseconds on CPU summed over its threads, the
    /// threads read, and the clock ticks of `/proc/PID/stat` for when threads came and went.
    struct CPUReading {
        let nanoseconds: UInt64
        let threads: Set<Int>
        let ticks: Int

        /// Seconds on CPU from `self` to `later`, and whether the ticks had to stand in.
        func seconds(to later: CPUReading) -> (seconds: Double, fromTicks: Bool) {
            if threads.isSubset(of: later.threads), later.nanoseconds >= nanoseconds {
                return (Double(later.nanoseconds - nanoseconds) / 1e9, false)
            }
            return (Double(later.ticks - ticks) / ProcessSampler.ticksPerSecond, true)
        }
    }

    func cpuReading() -> CPUReading? {
        guard let ticks = cpuTicks() else { return nil }
        let directory = "/proc/\(pid)/task"
        var total: UInt64 = 0
        var threads = Set<Int>()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let tid = Int(entry),
                let line = try? String(contentsOfFile: "\(directory)/\(entry)/schedstat", encoding: .utf8),
                let onCPU = line.split(separator: " ").first.flatMap({ UInt64($0) })
            else { continue }
            total += onCPU
            threads.insert(tid)
        }
        return CPUReading(nanoseconds: total, threads: threads, ticks: ticks)
    }

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

    /// The CPU time of several processes over one window: seconds on CPU each, whether any of
    /// them fell back to ticks, and the window's length, so that both see the same seconds of
    /// the machine.
    static func cpuTime(of pids: [pid_t], over seconds: Double) async -> (cpu: [Double], fromTicks: Bool, seconds: Double) {
        let samplers = pids.map { ProcessSampler(pid: $0) }
        let started = ContinuousClock.now
        let before = samplers.map { $0.cpuReading() }
        try? await Task.sleep(for: .seconds(seconds))
        let after = samplers.map { $0.cpuReading() }
        let elapsed = started.duration(to: .now)
        let spans = zip(before, after).map { start, end -> (seconds: Double, fromTicks: Bool) in
            guard let start, let end else { return (0, false) }
            return start.seconds(to: end)
        }
        return (spans.map(\.seconds), spans.contains { $0.fromTicks }, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Samples every 250 ms for `seconds`.
    func measure(seconds: Double) -> Figures {
        let start = Date()
        let first = cpuReading()
        var rss: [Double] = []
        while Date().timeIntervalSince(start) < seconds {
            if let value = rssMiB() { rss.append(value) }
            usleep(250_000)
        }
        let wall = Date().timeIntervalSince(start)
        let cpu = first.flatMap { start in cpuReading().map { start.seconds(to: $0) } } ?? (seconds: 0, fromTicks: false)
        return Figures(
            cpuPercent: cpu.seconds / wall * 100, fromTicks: cpu.fromTicks,
            rssAverageMiB: rss.isEmpty ? 0 : rss.reduce(0, +) / Double(rss.count),
            rssPeakMiB: rss.max() ?? 0, seconds: wall, rssSamples: rss)
    }
}
