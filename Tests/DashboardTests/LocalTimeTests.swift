import DashboardConfig
import Foundation
import Testing

@testable import Dashboard

/// Wall-clock fields without ICU: the header's clock and `time` values.
struct LocalTimeTests {
    /// 2026-05-09 06:00:00 UTC as the engine clock reads it.
    let may9 = 1_778_306_400 - LocalTime.referenceToUnix

    @Test func fieldsInAGivenZone() {
        let utc = ZoneInfo.utc
        #expect(LocalTime(may9, zone: utc) == LocalTime(year: 2026, month: 5, day: 9, hour: 6, minute: 0, second: 0))
        #expect(LocalTime(may9 + 0.999, zone: utc).second == 0, "seconds are cut, never rounded up")
        let kathmandu = ZoneInfo(identifier: "+0545", secondsFromGMT: 5 * 3600 + 45 * 60)
        #expect(LocalTime(may9 + 12 * 3600 + 15 * 60, zone: kathmandu).dateTime == "2026-05-10 00:00:00", "a quarter-hour zone crosses midnight")
        #expect(LocalTime(may9, zone: ZoneInfo(identifier: "America/New_York")!).clock() == "02:00:00", "daylight saving time in May")
        #expect(LocalTime(may9 - 120 * 86400, zone: ZoneInfo(identifier: "America/New_York")!).clock() == "01:00:00", "standard time in January")
    }

    @Test func momentsBeforeTheReferenceDateAndFarAway() {
        let utc = ZoneInfo.utc
        #expect(LocalTime(-0.5, zone: utc).dateTime == "2000-12-31 23:59:59", "half a second before 2001")
        #expect(LocalTime(-LocalTime.referenceToUnix, zone: utc).dateTime == "1970-01-01 00:00:00")
        #expect(LocalTime(253_402_300_799 - LocalTime.referenceToUnix, zone: utc).dateTime == "9999-12-31 23:59:59")
        #expect(LocalTime(-62_135_596_800 - LocalTime.referenceToUnix, zone: utc).dateTime == "0001-01-01 00:00:00", "years padded to four digits")
        #expect(LocalTime(.nan, zone: utc).dateTime == "2001-01-01 00:00:00", "not a number: no trap")
        #expect(LocalTime(1e300, zone: nil).year > 9999, "far out: no trap")
        #expect(LocalTime(-.infinity, zone: utc).dateTime == "2001-01-01 00:00:00")
    }

    @Test func clockWithAndWithoutSeconds() {
        let fields = LocalTime(year: 2026, month: 11, day: 23, hour: 7, minute: 5, second: 9)
        #expect(fields.clock() == "07:05:09")
        #expect(fields.clock(seconds: false) == "07:05")
    }
}
