@testable import DashboardConfig
import Foundation
import Testing

/// The zone reader against Foundation's `TimeZone` (ICU's own copy of the time zone database,
/// which the shipped binary no longer links): the same offset at every moment tried.
@Suite struct ZoneInfoTests {
    static let zones = [
        "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo", "Australia/Sydney",
        "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Auckland", "America/St_Johns", "Asia/Tokyo", "Australia/Lord_Howe",
    ]

    @Test(arguments: zones)
    func offsetsAgreeWithICUFrom2000To2100(zone name: String) throws {
        let zone = try #require(ZoneInfo(identifier: name))
        let icu = try #require(TimeZone(identifier: name))
        // Every 3 days and 7 hours for a century, across each year's transitions; then past the
        // file's last transition, where the rule at its end decides.
        var moment: Int64 = 946_684_800
        var checked = 0
        while moment < 4_102_444_800 {
            let expected = icu.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(moment)))
            #expect(zone.secondsFromGMT(atUnixTime: moment) == expected, "\(name) at \(moment)")
            moment += 3 * 86_400 + 7 * 3_600
            checked += 1
        }
        #expect(checked > 10_000)
    }

    @Test func transitionsHappenAtTheirSecond() throws {
        let berlin = try #require(ZoneInfo(identifier: "Europe/Berlin"))
        // 2026-03-29 01:00:00 UTC: 02:00 CET becomes 03:00 CEST.
        #expect(berlin.secondsFromGMT(atUnixTime: 1_774_746_000 - 1) == 3_600)
        #expect(berlin.secondsFromGMT(atUnixTime: 1_774_746_000) == 7_200)
        // 2100, far past any transition a file lists: the POSIX rule (CET-1CEST,M3.5.0,M10.5.0/3).
        #expect(berlin.secondsFromGMT(atUnixTime: 4_118_083_200) == 7_200, "2100-07-01")
        #expect(berlin.secondsFromGMT(atUnixTime: 4_102_444_800) == 3_600, "2100-01-01")
    }

    @Test func namesThatAreNotZonesAreRefused() {
        for name in ["", "Mars/Olympus", "../../etc/passwd", "/etc/localtime", "Europe/../Europe/Berlin", "Europe//Berlin", "zone.tab"] {
            #expect(ZoneInfo(identifier: name) == nil, "\(name)")
        }
        #expect(ZoneInfo(identifier: "UTC")?.secondsFromGMT(atUnixTime: 0) == 0)
        #expect(ZoneInfo(identifier: "Etc/GMT-3")?.secondsFromGMT(atUnixTime: 0) == 3 * 3_600)
    }

    @Test func aFileThatIsNotTZifIsNoZone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("TZif2 but nothing after".utf8).write(to: folder.appendingPathComponent("Broken"))
        try Data(repeating: 0xFF, count: 100).write(to: folder.appendingPathComponent("Noise"))
        #expect(ZoneInfo(identifier: "Broken", directory: folder.path) == nil)
        #expect(ZoneInfo(identifier: "Noise", directory: folder.path) == nil)
    }

    /// A quiet window in a zone with daylight time: the same wall-clock hours on both sides of a change.
    @Test func aQuietWindowFollowsTheWallClockAcrossDaylightTime() throws {
        let berlin = try #require(ZoneInfo(identifier: "Europe/Berlin"))
        let window = QuietWindow(from: 2 * 60, to: 4 * 60, zone: berlin)
        // 2026-03-28 02:30 CET (01:30 UTC) is inside; it ends at 04:00 CET (03:00 UTC).
        #expect(window.end(containing: Date(timeIntervalSince1970: 1_774_661_400)) == Date(timeIntervalSince1970: 1_774_666_800))
        // 2026-03-30 02:30 CEST (00:30 UTC) is inside; it ends at 04:00 CEST (02:00 UTC).
        #expect(window.end(containing: Date(timeIntervalSince1970: 1_774_830_600)) == Date(timeIntervalSince1970: 1_774_836_000))
        // 01:59 CEST is outside.
        #expect(window.end(containing: Date(timeIntervalSince1970: 1_774_828_740)) == nil)
        #expect(window.summary == "02:00–04:00 Europe/Berlin")
    }
}
