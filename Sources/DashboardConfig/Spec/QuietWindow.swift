import Foundation

/// One `quiet:` window: `{ days: [sat, sun], from: "02:00", to: "03:00", zone: UTC }`. Inside
/// it a pane probes and shows its state but raises no alert; an alert that would have fired
/// fires when the window ends, if the pane still fails.
public struct QuietWindow: Sendable, Equatable {
    /// Days the window starts on (1 = Sunday … 7 = Saturday, as `Calendar` counts); empty: every day.
    public var days: [Int]
    /// Minutes after midnight; `to` before `from` runs past midnight.
    public var from: Int
    public var to: Int
    /// The zone its times are in; nil: this machine's.
    public var zone: TimeZone?
    /// The zone as the config names it (`UTC`: Foundation calls that one GMT).
    public var zoneName: String?

    public init(days: [Int] = [], from: Int, to: Int, zone: TimeZone? = nil) {
        self.days = days
        self.from = from
        self.to = to
        self.zone = zone
    }

    public static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// When the window that `date` is in ends, or nil when `date` is outside every window.
    public func end(containing date: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone ?? .current
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let today = parts.weekday ?? 1
        let yesterday = today == 1 ? 7 : today - 1
        let startOfDay = calendar.startOfDay(for: date)
        func at(_ minutes: Int, daysLater: Int) -> Date? {
            calendar.date(byAdding: .minute, value: minutes, to: calendar.date(byAdding: .day, value: daysLater, to: startOfDay) ?? startOfDay)
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
        func clock(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
        let named = days.map { QuietWindow.dayNames[$0 - 1] }.joined(separator: ", ")
        return (named.isEmpty ? "" : named + " ") + clock(from) + "–" + clock(to) + ((zoneName ?? zone?.identifier).map { " " + $0 } ?? "")
    }
}
