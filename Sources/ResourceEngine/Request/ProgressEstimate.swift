import Foundation

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
        let arriving = downloaded != nil
        // (progress, weight): connecting, sending, waiting, receiving.
        let phases: [(Double, Double)] = [
            (arriving ? 1 : Self.approaching(t, threeQuartersAt: 2.5), 0.3),
            (arriving ? 1 : Self.approaching(t, threeQuartersAt: 2.5), isGet ? 0 : 1),
            (arriving ? 1 : Self.approaching(t, threeQuartersAt: 1.2), 0.3),
            (downloaded ?? 0, isGet ? 1 : 0.1),
        ]
        let total = phases.reduce(0) { $0 + $1.1 }
        let done = phases.reduce(0) { $0 + $1.0 * $1.1 }
        return min(done / total, 0.99)
    }

    /// Rises from 0 towards 1: three quarters at `threeQuartersAt` seconds.
    static func approaching(_ t: TimeInterval, threeQuartersAt: TimeInterval) -> Double {
        1 - pow(0.25, t / threeQuartersAt)
    }
}
