@testable import Dashboard
import DashboardConfig
import Foundation
import ResourceEngine
import Testing

@Suite struct ValueFormatterTests {
    let utc = ZoneInfo.utc
    /// 2026-05-09 06:13:20 UTC on the engine clock.
    let now: TimeInterval = 800_000_000

    func text(_ value: JSON, _ format: ValueFormat) -> String? {
        ValueFormatter.text(value, format, now: now, timeZone: utc)
    }

    @Test func numbers() {
        #expect(text(.int(1_234_567), .number) == "1,234,567")
        #expect(text(.int(-1_234), .number) == "-1,234")
        #expect(text(.int(999), .number) == "999")
        // The digits the value has, grouped; rounded only to `decimals`.
        #expect(text(.double(0.19360859939327266), .number) == "0.19360859939327266")
        #expect(text(.double(12.345), .number) == "12.345")
        #expect(text(.double(1234.56), .number) == "1,234.56")
        #expect(text(.double(455.68), .number) == "455.68")
        #expect(text(.double(10243.55), .number) == "10,243.55")
        #expect(text(.string("10243.55"), .number) == "10,243.55")
        #expect(text(.double(0.000123456), .number) == "0.000123456")
        #expect(ValueFormatter.text(.double(455.68), .number, decimals: 1, now: now, timeZone: utc) == "455.7")
        #expect(ValueFormatter.text(.int(40), .number, decimals: 2, now: now, timeZone: utc) == "40.00")
        #expect(ValueFormatter.text(.string("10243.555"), .number, decimals: 2, now: now, timeZone: utc) == "10,243.56")
        #expect(ValueFormatter.text(.double(10243.55), .number, decimals: 1, now: now, timeZone: utc) == "10,243.6", "on the digits, not the double")
        #expect(ValueFormatter.text(.double(-999.96), .number, decimals: 1, now: now, timeZone: utc) == "-1,000.0")
        #expect(ValueFormatter.text(.double(-0.04), .number, decimals: 1, now: now, timeZone: utc) == "0.0")
        #expect(ValueFormatter.text(.int(7), .number, decimals: 0, now: now, timeZone: utc) == "7")
        #expect(ValueFormatter.text(.double(0.19360859939327266), .percent, decimals: 2, now: now, timeZone: utc) == "19.36%")
        #expect(text(.double(0), .number) == "0")
        #expect(text(.string("0.5"), .number) == "0.5", "Prometheus sends numbers as strings")
        #expect(text(.string("UP"), .number) == nil, "not a number: the raw value is shown")
        #expect(text(.bool(true), .number) == nil)
    }

    @Test func bytes() {
        #expect(text(.int(512), .bytes) == "512 B")
        #expect(text(.int(1536), .bytes) == "1.5 KiB")
        #expect(text(.int(123_456_789), .bytes) == "118 MiB")
        #expect(text(.int(10 * 1024 * 1024), .bytes) == "10 MiB")
        #expect(text(.double(3.5 * 1024 * 1024 * 1024 * 1024), .bytes) == "3.5 TiB")
    }

    @Test func percentsAreFractions() {
        #expect(text(.double(0.19360859939327266), .percent) == "19.4%")
        #expect(text(.int(1), .percent) == "100%")
        #expect(text(.double(0.005), .percent) == "0.5%")
    }

    @Test func durations() {
        #expect(text(.double(0.00085), .duration) == "850 µs")
        #expect(text(.double(0.0193), .duration) == "19 ms")
        #expect(text(.double(1.234), .duration) == "1.2 s")
        #expect(text(.int(42), .duration) == "42 s")
        #expect(text(.int(200), .duration) == "3m 20s")
        #expect(text(.int(7_500), .duration) == "2h 5m")
        #expect(text(.int(273_600), .duration) == "3d 4h")
        #expect(text(.int(3_600), .duration) == "1h")
    }

    @Test func agesFromEpochSecondsMillisecondsAndISO8601() {
        let epoch = Int(now + 978_307_200)
        #expect(text(.int(epoch - 300), .age) == "5m ago")
        #expect(text(.int((epoch - 7_200) * 1000), .age) == "2h ago", "milliseconds")
        #expect(text(.double(Double(epoch - 30)), .age) == "30s ago")
        #expect(text(.string("2026-05-09T06:08:20Z"), .age) == "5m ago")
        #expect(text(.string("2026-05-09T06:08:20.123Z"), .age) == "4m ago")
        // Without a zone (Python's naive isoformat(), many servers' logs): taken as UTC.
        #expect(text(.string("2026-05-09T06:08:20"), .age) == "5m ago")
        #expect(text(.string("2026-05-09 06:08:20.123456"), .age) == "4m ago")
        #expect(text(.string("2026-05-09T04:13"), .age) == "2h ago")
        #expect(text(.string("1999-12-31T23:59:59"), .time) == "1999-12-31 23:59:59")
        #expect(text(.string("2026-13-09T06:08:20"), .age) == nil, "no 13th month")
        #expect(text(.string("2026-05-09T06:08:20junk"), .age) == nil)
        #expect(text(.int(epoch + 600), .age) == "in 10m", "a moment ahead")
        #expect(text(.string("yesterday"), .age) == nil)
        #expect(text(.int(Int.max), .age) == nil, "Prometheus's \"no sample yet\" is not a moment")
        #expect(text(.int(Int.min), .time) == nil)
        #expect(text(.int(4_000_000_000_000), .age) == nil, "a century away: a unit mix-up, shown raw")
    }

    @Test func agesSayWhenTheyChange() {
        let epoch = now + 978_307_200
        #expect(ValueFormatter.untilChange(.double(epoch - 330), .age, now: now) == 30)
        #expect(ValueFormatter.untilChange(.double(epoch - 330), .duration, now: now) == nil)
    }

    @Test func hostileNumbersNeitherCrashNorLie() {
        #expect(text(.double(1e300), .bytes)?.hasSuffix(" EiB") == true)
        #expect(text(.double(1e300), .duration)?.hasSuffix("d") == true)
        #expect(text(.double(-1e300), .duration)?.hasPrefix("-") == true)
        #expect(text(.double(1e300), .time) == nil)
        #expect(text(.double(1e300), .age) == nil)
        #expect(text(.double(1e300), .number) == "1e+300", "no invented digits")
        #expect(text(.double(1e300), .percent)?.hasSuffix("%") == true)
        #expect(text(.bigInteger("123456789012345678901234567890"), .number) == "123,456,789,012,345,678,901,234,567,890", "digit for digit")
        #expect(text(.string("-1234567"), .number) == "-1,234,567")
        #expect(text(.string("nan"), .number) == nil)
        #expect(text(.string("inf"), .bytes) == nil)
    }

    @Test func localTimes() {
        #expect(text(.string("2026-05-09T06:00:00Z"), .time) == "2026-05-09 06:00:00")
        #expect(ValueFormatter.text(.string("2026-05-09T06:00:00Z"), .time, now: now, timeZone: ZoneInfo(identifier: "Europe/Paris")!) == "2026-05-09 08:00:00")
        #expect(text(.int(1_778_306_400), .time) == "2026-05-09 06:00:00")
    }
}
