import Foundation
import ResourceEngine
import Testing
import TextBasics

/// What the binary does without NSString, against NSString (which the tests still link): the same
/// text from trimming, percent-encoding and decoding, printf numbers, and the same order of names.
@Suite struct TextBasicsTests {
    static let samples = [
        "", " ", "\t\n", "  a b  ", "\u{3000}wide space\u{00A0}", "\r\nline\r\n", "x\u{2028}", "é🚀 ", "\u{85}next\u{85}", "--a-b--", "\"quoted\"",
        "a/b?c=d&e=f#g", "100% sure", "ça va", "%41%42", "%zz", "%4", "%C3%A9", "%FF", "+plus+", "[::1]:80", "ünï ćödé ✓",
    ]

    @Test func trimmingAgreesWithFoundation() {
        for text in Self.samples {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            #expect(text.trimming(charactersIn: "-\"") == text.trimmingCharacters(in: CharacterSet(charactersIn: "-\"")), "\(text.debugDescription)")
        }
    }

    @Test func percentEncodingAgreesWithFoundation() {
        var query = CharacterSet.urlQueryAllowed
        query.remove(charactersIn: ":#[]@!$&'()*+,;=")
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }.joined()
        for text in Self.samples + [ascii] {
            let ours = text.percentEncoded { byte in
                byte < 128 && query.contains(UnicodeScalar(byte))
            }
            #expect(ours == text.addingPercentEncoding(withAllowedCharacters: query), "\(text.debugDescription)")
            #expect(text.percentDecoded == text.removingPercentEncoding, "\(text.debugDescription)")
        }
    }

    @Test func printfAgreesWithStringFormat() {
        for value in [0, 0.05, 0.25, 1.5, -2.75, 12.345, 1e21, 123_456_789.987, .infinity, -.nan] {
            for format in ["%.1f", "%.2f", "%.3f", "%g", "%.3g", "%.1f s"] {
                #expect(String(printf: format, value) == String(format: format, value), "\(format) \(value)")
            }
        }
        for value: UInt32 in [0, 7, 0x1F, 0xFFFF] { #expect(String(printf: "%04X", value) == String(format: "%04X", value)) }
        #expect(String.hex(UInt8(0x0A), digits: 2) == String(format: "%02X", 0x0A))
        #expect(String.zeroPadded(7, digits: 2) == "07" && String.zeroPadded(-7, digits: 3) == "-007" && String.zeroPadded(123, digits: 2) == "123")
        #expect("ab".padded(toLength: 4) == "ab  " && "abcdef".padded(toLength: 4) == "abcd")
    }

    /// For ASCII names; past ASCII, letters order by their code points (an accented letter after
    /// `z`), where NSString decomposed them first (DECISIONS §29).
    @Test func naturalOrderAgreesWithNumericCaseInsensitiveCompare() {
        #expect("é".naturalOrder("z") == .descending && "Ä".naturalOrder("ä") == .same)
        let names = ["pane 9", "pane 10", "Pane 2", "pane 02", "a", "B", "b", "", "x1y2", "x1y10", "x01", "x1", "10", "9", "Z", "007", "7", "a-b", "a_b", "A b"]
        for a in names {
            for b in names {
                let expected = a.compare(b, options: [.caseInsensitive, .numeric])
                let ours = a.naturalOrder(b)
                let same = switch (ours, expected) {
                case (.ascending, .orderedAscending), (.same, .orderedSame), (.descending, .orderedDescending): true
                default: false
                }
                #expect(same, "\(a) vs \(b): \(ours) against \(expected.rawValue)")
            }
        }
    }

    @Test func leadingSchemes() {
        #expect("https://x".leadingScheme == "https")
        #expect("svn+ssh://x".leadingScheme == "svn+ssh")
        #expect("/path:x".leadingScheme == nil && "1http://x".leadingScheme == nil && "no colon".leadingScheme == nil && "a b:c".leadingScheme == nil)
    }

    @Test func datesAgreeWithFoundationsFormatters() {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let http = DateFormatter()
        http.locale = Locale(identifier: "en_US_POSIX")
        http.timeZone = TimeZone(identifier: "GMT")
        http.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        for seconds in stride(from: -86_400.0 * 400, to: 4_102_444_800, by: 86_400 * 37 + 3_671.25) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(DateText.utcTimestamp(seconds) == iso.string(from: date), "\(seconds)")
            #expect(DateText.utcTimestamp(seconds, milliseconds: false) == plain.string(from: date), "\(seconds)")
            let written = http.string(from: date.addingTimeInterval(-0.25))
            #expect(DateText.httpDate(written) == http.date(from: written)?.timeIntervalSince1970, "\(written)")
        }
        #expect(DateText.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(DateText.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == nil && DateText.httpDate("06 Nov 1994") == nil)
    }
}
