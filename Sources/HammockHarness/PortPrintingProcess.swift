import Foundation
import Glibc

/// A child process (a Python server) that writes the port it listens on to its output: started,
/// waited for until the output names the port, killed with SIGKILL. Its output and errors go to
/// files in `directory`.
struct PortPrintingProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    let port: UInt16

    /// Starts `argv` and reads the port out of its output with `port`, for as long as the harness
    /// waits for anything; `what` names it when it does not start.
    init(_ argv: [String], in directory: String, what: String, port parse: (String) -> UInt16?) throws {
        let output = directory + "/stdout"
        let errors = directory + "/stderr"
        pid = try ProcessRunner.launch(argv, stdout: output, stderr: errors)
        let deadline = Date().addingTimeInterval(TmuxHarness.patience)
        var port: UInt16?
        while port == nil, Date() < deadline {
            port = (try? String(contentsOfFile: output, encoding: .utf8)).flatMap(parse)
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw Failure(description: "\(what) did not start: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        }
        self.port = port
    }

    /// Ends the process and reaps it.
    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
