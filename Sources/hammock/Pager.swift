import Foundation
import Glibc

/// Which pager `o` runs: `$PAGER` when set, else `less`, else `more` (the text is already
/// sanitised: no escape sequences reach the terminal through it).
enum Pager {
    static func command(environment: [String: String]) -> String {
        if let pager = environment["PAGER"], !pager.trimmingCharacters(in: .whitespaces).isEmpty { return pager }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where access("\(directory)/less", X_OK) == 0 {
            return "less"
        }
        return "more"
    }
}
