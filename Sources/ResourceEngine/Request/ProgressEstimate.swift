import FoundationEssentials
import Glibc

/// How far a network request has come, estimated as Siesta estimates it: a weighted mean of its
/// phases, so progress rises while nothing has arrived yet and never reaches 1 before the
/// request completes (completion reports the 1).
///
/// Siesta weighs five phases. The transports here count only the bytes received, so the phases
/// before the first byte (connecting, sending, waiting for the answer) advance with time, each
/// towards 1 and reaching three quarters at Siesta's times; once bytes arrive, they are over and
/// the download's share follows the bytes. `Request` keeps reported progress from ever going
/// down.
struct ProgressEstimate: Sendable {
    /// A GET (or HEAD): the download weighs most; otherwise the upload does.
    let isGet: Bool
    /// The share of the body received, once the transport has counted any.
    private var downloaded: Double?

    init(isGet: Bool) {
        self.isGet = isGet
    }

    /// The transport counted `fraction` of the body.
    mutating func received(_ fraction: Double) {
        guard fraction.isFinite else { return }
        downloaded = max(downloaded ?? 0, min(max(fraction, 0), 1))
    }

    /// The estimate `elapsed` seconds after the request started: below 1.
    func value(after elapsed: TimeInterval) -> Double {
        let t = max(0, elapsed)
        // Connecting and waiting weigh 0.3 each; sending 1 for a body (0 for a GET); receiving 1
        // for a GET (0.1 otherwise). No array: the transport may report several times a load.
        let sendWeight = isGet ? 0.0 : 1.0
        let receiveWeight = isGet ? 1.0 : 0.1
        let connecting = downloaded != nil ? 1 : Self.approaching(t, threeQuartersAt: 2.5)
        let waiting = downloaded != nil ? 1 : Self.approaching(t, threeQuartersAt: 1.2)
        let done = 0.3 * connecting + sendWeight * connecting + 0.3 * waiting + receiveWeight * (downloaded ?? 0)
        return min(done / (0.6 + sendWeight + receiveWeight), 0.99)
    }

    /// Rises from 0 towards 1: three quarters at `threeQuartersAt` seconds.
    static func approaching(_ t: TimeInterval, threeQuartersAt: TimeInterval) -> Double {
        1 - pow(0.25, t / threeQuartersAt)
    }
}
