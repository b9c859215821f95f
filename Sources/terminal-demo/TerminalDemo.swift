import CursesBackend
import Glibc
import TerminalUI

/// A small program that exercises the terminal layer end to end: frames, keys, resize, suspend,
/// hostile text, and restoring the terminal on every exit. The end-to-end test drives it under tmux.
///
/// With `HAMMOCK_FRAME_FIFO=PATH`, it writes `frame N COLSxROWS pid P` to that FIFO after each frame, so a
/// test can wait for frames instead of polling the screen.
@main
struct TerminalDemo {
    @MainActor
    static func main() async {
        let session: TerminalSession
        do {
            session = try TerminalSession(mouse: CommandLine.arguments.contains("--mouse"))
        } catch {
            let message = "terminal-demo: \(error)\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            exit(1)
        }
        let app = DemoApp(session: session)
        do {
            let status = try await app.run()
            session.shutdown()
            exit(status)
        } catch {
            // An error thrown in the app: restore the terminal first, then say what happened.
            session.shutdown()
            let message = "terminal-demo: \(error)\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            exit(70)
        }
    }
}

@MainActor
final class DemoApp {
    let session: TerminalSession
    let terminal: Terminal
    var keys: [String] = []
    var frames = 0
    var drawScheduled = false
    var finish: ((Result<Int32, any Error>) -> Void)?
    let frameLog: Int32

    init(session: TerminalSession) {
        self.session = session
        terminal = Terminal(backend: session.backend)
        if let path = getenv("HAMMOCK_FRAME_FIFO") {
            frameLog = open(path, O_WRONLY | O_NONBLOCK)
        } else {
            frameLog = -1
        }
    }

    struct SimulatedFailure: Error, CustomStringConvertible {
        var description: String { "simulated failure (the ! key)" }
    }

    func run() async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            finish = { continuation.resume(with: $0) }
            session.start { [weak self] event in self?.handle(event) }
            requestDraw()
        }
    }

    func handle(_ event: TerminalEvent) {
        switch event {
        case .key(.character("q")):
            quit(0)
        case .key(.ctrl("c")):
            quit(130)
        case .key(.ctrl("z")):
            session.suspend()
        case .key(.character("!")):
            finish?(.failure(SimulatedFailure()))
            finish = nil
        case .key(.character("T")):
            // A Swift trap, as a bug would make one: the terminal must still be restored.
            let numbers: [Int] = []
            _ = numbers[keys.count]
        case .key(let key):
            keys.append(key.description)
            keys = Array(keys.suffix(12))
            requestDraw()
        case .resize:
            requestDraw()
        case .resumed:
            terminal.forceFullRedraw()
            requestDraw()
        case .signal(let sig):
            quit(128 + sig)
        case .inputClosed:
            quit(0)
        }
    }

    func quit(_ status: Int32) {
        session.shutdown()
        finish?(.success(status))
        finish = nil
    }

    /// Coalesces: any number of events in one main-queue turn make one frame.
    func requestDraw() {
        guard !drawScheduled else { return }
        drawScheduled = true
        Task { @MainActor in
            self.drawScheduled = false
            self.draw()
        }
    }

    func draw() {
        let size = terminal.size
        terminal.draw { buffer in
            let rows = Layout.vertical([.length(1), .fill(1), .length(1)]).split(buffer.area)
            let (header, body, footer) = (rows[0], rows[1], rows[2])
            StatusBar(left: "terminal-demo \(size)", right: "frame \(frames + 1)").render(into: header, buffer: &buffer)
            let block = Block(title: "Keys", rightTitle: "日本語 ✓")
            block.render(into: body, buffer: &buffer)
            let inner = block.inner(body)
            let parts = Layout.vertical([.length(1), .length(3), .fill(1)]).split(inner)
            let (keyLine, list, spark) = (parts[0], parts[1], parts[2])
            Paragraph("keys: " + keys.joined(separator: " "), wrap: false).render(into: keyLine, buffer: &buffer)
            KeyValueList([
                ("wide", "日本語テキスト 🚀"),
                ("joined", "👨‍👩‍👧 👍🏽 ❤️ 1️⃣ end"),
                ("hostile", "\u{1B}]0;pwned\u{07}\u{1B}[2J"),
                ("size", "\(size)"),
            ]).render(into: list, buffer: &buffer)
            Sparkline([1, 3, 2, 5, 8, 4, 6, 7, 3, 1], style: Style().fg(.green)).render(into: spark, buffer: &buffer)
            StatusBar(left: "q quit  C-z suspend", style: Style().dimmed).render(into: footer, buffer: &buffer)
        }
        frames += 1
        if frameLog >= 0 {
            let line = "frame \(frames) \(size) pid \(getpid())\n"
            _ = line.withCString { write(frameLog, $0, strlen($0)) }
        }
    }
}
