import FoundationEssentials
import ResourceEngine
import TextBasics

/// `snapshot`'s reports for CI systems, written from its JSON (whose secrets are already
/// masked): JUnit XML, one test case per pane, and TAP 14, one test point per pane.
public enum SnapshotReport {
    /// JUnit XML: a suite named after the config, a test case per pane (its time the probe's
    /// latency), a `<failure>` with the reason for a pane that is not ok.
    public static func junit(_ state: JSON, seconds: Double, timestamp: String, hostname: String, version: String) -> String {
        let title = state["title"]?.stringValue ?? "hammock"
        let panes = state["panes"]?.arrayValue ?? []
        let failures = panes.filter { $0["ok"]?.boolValue != true }.count
        let time = String(printf: "%.3f", max(0, seconds))
        let counts = "tests=\"\(panes.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(time)\""
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites name=\"hammock\" \(counts) timestamp=\"\(xml(timestamp))\">",
            "  <testsuite name=\"\(xml(title))\" \(counts) timestamp=\"\(xml(timestamp))\" hostname=\"\(xml(hostname))\">",
            "    <properties>",
            "      <property name=\"config\" value=\"\(xml(state["file"]?.stringValue ?? ""))\"/>",
            "      <property name=\"hammock.version\" value=\"\(xml(version))\"/>",
            "    </properties>",
        ]
        for pane in panes {
            let name = pane["title"]?.stringValue ?? ""
            let latency = pane["latencyMs"]?.intValue.map { String(printf: "%.3f", Double($0) / 1000) } ?? "0.000"
            lines.append("    <testcase name=\"\(xml(name))\" classname=\"\(xml(title))\" time=\"\(latency)\">")
            if pane["ok"]?.boolValue != true {
                let type = pane["state"]?.stringValue ?? "failing"
                lines.append("      <failure message=\"\(xml(reason(pane)))\" type=\"\(xml(type))\">\(xml(exchange(pane)))</failure>")
            } else {
                lines.append("      <system-out>\(xml(exchange(pane)))</system-out>")
            }
            lines.append("    </testcase>")
        }
        lines += ["    <system-out></system-out>", "    <system-err></system-err>", "  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// TAP version 14: `ok N - title` or `not ok N - title` with a YAML block saying why.
    public static func tap(_ state: JSON) -> String {
        let panes = state["panes"]?.arrayValue ?? []
        var lines = ["TAP version 14", "1..\(panes.count)"]
        for (index, pane) in panes.enumerated() {
            // A `#` starts a directive in TAP; `\` escapes it.
            let title = (pane["title"]?.stringValue ?? "").replacing("\\", with: "\\\\").replacing("#", with: "\\#")
            let ok = pane["ok"]?.boolValue == true
            lines.append("\(ok ? "ok" : "not ok") \(index + 1) - \(oneLine(title))")
            guard !ok else { continue }
            lines += [
                "  ---",
                "  message: \(yaml(reason(pane)))",
                "  state: \(yaml(pane["state"]?.stringValue ?? "failing"))",
                "  request: \(yaml(exchange(pane)))",
                "  ...",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Why a pane is not ok, in a line: the unmet expectation, else the error, else on what it
    /// waits, else its state.
    static func reason(_ pane: JSON) -> String {
        pane["unmet"]?.stringValue ?? pane["error"]?.stringValue ?? pane["waitingFor"]?.stringValue
            ?? "the pane is \(pane["state"]?.stringValue ?? "failing")"
    }

    /// "GET https://… → 200 in 4 ms", the URL as sent (secrets masked); "GET …, not sent" and the
    /// URL as written for a pane that waits for another's value.
    static func exchange(_ pane: JSON) -> String {
        guard pane["urlSent"]?.stringValue != nil || pane["waitingFor"]?.stringValue == nil else {
            return "\(pane["method"]?.stringValue ?? "GET") \(pane["url"]?.stringValue ?? ""), not sent"
        }
        var text = "\(pane["method"]?.stringValue ?? "GET") \(pane["urlSent"]?.stringValue ?? "")"
        if let status = pane["status"]?.intValue { text += " → \(status)" }
        if let latency = pane["latencyMs"]?.intValue { text += " in \(latency) ms" }
        return text
    }

    /// Text safe in an XML attribute or element: the five entities escaped, and characters XML
    /// 1.0 cannot hold (C0 controls but tab and line breaks, U+FFFE, U+FFFF) or should not (C1) replaced.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            // C1 controls too: a terminal showing the report could take U+009B for CSI.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A double-quoted YAML string (JSON's escaping, which YAML reads).
    static func yaml(_ text: String) -> String {
        JSON.string(text).description
    }

    private static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? " " : Character($0) })
    }
}
