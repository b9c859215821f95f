import FoundationEssentials
import TextBasics

/// One `quiet:` window: `{ days: [sat, sun], from: "02:00", to: "03:00", zone: UTC }`. Inside
/// it a pane probes and shows its state but raises no alert; an alert that would have fired
/// fires when the window ends, if the pane still fails.
public struct QuietWindow: Sendable, Equatable {
    /// Days the window starts on (1 = Sunday … 7 = Saturday); empty: every day.
    public var days: [Int]
    /// Minutes after midnight; `to` before `from` runs past midnight.
    public var from: Int
    public var to: Int
    /// The zone its times are in; nil: this machine's.
    public var zone: ZoneInfo?

    public init(days: [Int] = [], from: Int, to: Int, zone: ZoneInfo? = nil) {
        self.days = days
        self.from = from
        self.to = to
        self.zone = zone
    }

    public static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// When the window that `date` is in ends, or nil when `date` is outside every window.
    public func end(containing date: Date) -> Date? {
        func offset(_ unix: Int64) -> Int64 {
            Int64(zone?.secondsFromGMT(atUnixTime: unix) ?? ZoneInfo.systemSecondsFromGMT(atUnixTime: unix))
        }
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e13 else { return nil }
        let unix = Int64(seconds.rounded(.down))
        let local = unix + offset(unix)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let minute = Int(local - day * 86_400) / 60
        // 1970-01-01 was a Thursday (5).
        let today = Int(((day % 7) + 7 + 4) % 7) + 1
        let yesterday = today == 1 ? 7 : today - 1
        /// The moment the local clock reads `minutes` past midnight, `daysLater` days on.
        func at(_ minutes: Int, daysLater: Int) -> Date? {
            let target = (day + Int64(daysLater)) * 86_400 + Int64(minutes) * 60
            let utc = target - offset(target - offset(target))
            return Date(timeIntervalSince1970: TimeInterval(utc))
        }
        if from < to {
            guard days.isEmpty || days.contains(today), minute >= from, minute < to else { return nil }
            return at(to, daysLater: 0)
        }
        // Past midnight: begun today, or begun yesterday and not over.
        if minute >= from, days.isEmpty || days.contains(today) { return at(to, daysLater: 1) }
        if minute < to, days.isEmpty || days.contains(yesterday) { return at(to, daysLater: 0) }
        return nil
    }

    /// "sat, sun 02:00–03:00 UTC", for `check` and the screen.
    public var summary: String {
        func clock(_ minutes: Int) -> String { String.zeroPadded(minutes / 60, digits: 2) + ":" + String.zeroPadded(minutes % 60, digits: 2) }
        let named = days.map { QuietWindow.dayNames[$0 - 1] }.joined(separator: ", ")
        let zoneName = zone.map { " " + $0.identifier } ?? ""
        return (named.isEmpty ? "" : named + " ") + clock(from) + "–" + clock(to) + zoneName
    }
}
