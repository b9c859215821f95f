import Dispatch
import Monitor
import TerminalUI

/// Frames: many requests make one, paced for the eye; drawing reads the model only.
extension DashboardApp {
    /// Asks for a frame. Many requests make one frame; background ones (`urgent: false`) come at
    /// most every `minimumFrameInterval` (0.2 s by default: five a second, which is what a
    /// monitor's eye needs), so fifty endpoints answering through a second do not redraw fifty
    /// times, and wait briefly for loads that have just started (`FramePacing`); urgent ones
    /// (keys, resizes) draw on the next main-queue turn.
    public func requestFrame(urgent: Bool = false) {
        guard terminal != nil else { return }
        if urgent {
            guard !urgentFrameScheduled else { return }
            urgentFrameScheduled = true
            scheduleDraw(after: nil)
            return
        }
        if frameScheduled {
            if !heldFrameReleased, pacing.releases(loading: healthCounts.loading > 0) {
                heldFrameReleased = true
                scheduleDraw(after: nil)
            }
            return
        }
        guard !urgentFrameScheduled else { return }
        frameScheduled = true
        scheduleDraw(after: pacing.wait(now: Self.uptime()))
    }

    /// Draws on the next main-queue turn (nil) or after `wait` seconds, unless a frame has been
    /// drawn in between.
    private func scheduleDraw(after wait: Double?) {
        let token = frameToken
        let draw = { @Sendable in MainActor.assumeIsolated { self.drawScheduledFrame(token) } }
        if let wait {
            DispatchQueue.main.asyncAfter(deadline: .now() + wait, execute: draw)
        } else {
            DispatchQueue.main.async(execute: draw)
        }
    }

    private func drawScheduledFrame(_ token: Int) {
        guard token == frameToken, frameScheduled || urgentFrameScheduled else { return }
        if !urgentFrameScheduled, let hold = pacing.hold(now: Self.uptime(), loading: healthCounts.loading > 0) {
            scheduleDraw(after: hold)
            return
        }
        drawNow()
    }

    /// Seconds on the monotonic clock frames are paced by.
    static func uptime() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Draws a frame now; returns the number of cells sent.
    @discardableResult
    public func drawNow() -> Int {
        // A stopped app draws nothing: a frame left on the main queue must not outlive quitting.
        guard let terminal, started else { return 0 }
        catchUp()
        framesDrawn += 1
        frameToken += 1
        pacing.drew(at: Self.uptime())
        frameScheduled = false
        urgentFrameScheduled = false
        heldFrameReleased = false
        swap(&drawn, &drawnBefore)
        let view = view(of: model)
        let palette = self.palette
        let sent = terminal.draw { buffer in
            view.render(into: &buffer)
            if let palette { buffer.apply(palette) }
        }
        // Other panes came into view (a key, a resize, a new order): their ages and spinners count now.
        if tickAction != nil, drawn.panes != drawnBefore.panes { scheduleTick() }
        onFrame?(sent)
        return sent
    }
}
