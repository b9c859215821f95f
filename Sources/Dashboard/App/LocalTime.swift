import DashboardConfig
import FoundationEssentials
import Glibc
import TextBasics

/// Wall-clock fields of a moment, in a given time zone or the system's.
///
/// The system's zone is read through the C library (`localtime_r`: `TZ`, else /etc/localtime),
/// which is what the C library's own clock says. A `ZoneInfo` given instead (tests, UTC) is asked
/// for its offset at that moment only.
struct LocalTime: Equatable {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    /// Seconds from 1970 to the engine clock's reference date (2001-01-01 00:00:00 UTC).
    static let referenceToUnix: TimeInterval = 978_307_200

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    /// The fields of `moment` (seconds since the reference date) in `zone`, or in the system's
    /// zone when nil.
    init(_ moment: TimeInterval, zone: ZoneInfo?) {
        // Past ±3 million years (or not a number) is no time to show; the conversion must not trap.
        let moment = moment.isFinite ? min(max(moment, -1e14), 1e14) : 0
        let unix = Int64((moment + Self.referenceToUnix).rounded(.down))
        var seconds = time_t(unix + Int64(zone?.secondsFromGMT(atUnixTime: unix) ?? ZoneInfo.systemSecondsFromGMT(atUnixTime: unix)))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        year = Int(fields.tm_year) + 1900
        month = Int(fields.tm_mon) + 1
        day = Int(fields.tm_mday)
        hour = Int(fields.tm_hour)
        minute = Int(fields.tm_min)
        second = Int(fields.tm_sec)
    }

    /// "14:02:31", or "14:02" without seconds.
    func clock(seconds: Bool = true) -> String {
        String.zeroPadded(hour, digits: 2) + ":" + String.zeroPadded(minute, digits: 2) + (seconds ? ":" + String.zeroPadded(second, digits: 2) : "")
    }

    /// "2026-11-23 18:30:05".
    var dateTime: String {
        String.zeroPadded(year, digits: 4) + "-" + String.zeroPadded(month, digits: 2) + "-" + String.zeroPadded(day, digits: 2) + " " + clock()
    }
}
