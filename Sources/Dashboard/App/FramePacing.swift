/// When a background frame is drawn (keys and resizes draw at once and are not paced).
///
/// No sooner than `minimumInterval` after the frame before; and a frame that comes due while
/// loads that began less than `settle` ago are still running waits for them, once and for at
/// most `settle`. Fifty probes sent together answer within milliseconds: drawn at once, the
/// frame would show fifty spinners for requests already answered and hold their answers back a
/// whole frame interval; waiting, it shows the answers (one frame, not two). A slow load, one that
/// started longer ago, holds nothing.
///
/// Times are seconds on one monotonic clock, the caller's.
struct FramePacing {
    let minimumInterval: Double
    let settle: Double
    private(set) var lastFrame = -Double.infinity
    private(set) var lastLoadStart = -Double.infinity
    /// The frame in waiting has been held once already.
    private(set) var held = false

    /// `settle` nil: a quarter of `minimumInterval` (50 ms at five frames a second), so a held
    /// frame is never later than the pacing already makes it.
    init(minimumInterval: Double, settle: Double? = nil) {
        self.minimumInterval = max(0, minimumInterval)
        self.settle = max(0, settle ?? minimumInterval / 4)
    }

    /// How long from `now` until a background frame asked for now is due.
    func wait(now: Double) -> Double {
        max(0, lastFrame + minimumInterval - now)
    }

    /// A load started at `now`.
    mutating func loadStarted(at now: Double) {
        lastLoadStart = now
    }

    /// At the due time: nil to draw now, or how long to hold the frame for loads that have just
    /// started (`loading`: any load is running).
    mutating func hold(now: Double, loading: Bool) -> Double? {
        guard !held, loading, settle > 0, now - lastLoadStart < settle else { return nil }
        held = true
        return max(0, lastLoadStart + settle - now)
    }

    /// Whether a held frame should be drawn now: nothing loads any more.
    func releases(loading: Bool) -> Bool {
        held && !loading
    }

    /// A frame was drawn at `now`.
    mutating func drew(at now: Double) {
        lastFrame = now
        held = false
    }
}
