import FlyingFox
import FlyingSocks
import Foundation

extension HTTPServer {
    /// Runs the server in a task and returns once it listens, with the port it listens on.
    ///
    /// If the server cannot listen (the port is taken, the address is not local) this throws that
    /// error at once. FlyingFox's `waitUntilListening` alone sits out its whole timeout first, which
    /// made `hammock demo` pause 10 s before falling back from a taken port.
    public func launch(timeout: TimeInterval = 10) async throws -> (task: Task<Void, any Error>, port: UInt16) {
        let outcome = OneShot<Result<Void, any Error>>()
        let task = Task {
            do {
                try await self.run()
            } catch {
                outcome.finish(.failure(error))
                throw error
            }
            outcome.finish(.failure(LaunchError(message: "the server stopped before it listened")))
        }
        let watcher = Task {
            do {
                try await self.waitUntilListening(timeout: timeout)
                outcome.finish(.success(()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        do {
            try await outcome.wait().get()
        } catch {
            watcher.cancel()
            task.cancel()
            throw error
        }
        watcher.cancel()
        guard case .ip4(_, let port) = listeningAddress else {
            task.cancel()
            throw LaunchError(message: "the server did not report an IPv4 address")
        }
        return (task, port)
    }
}

/// Why a server did not start.
public struct LaunchError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
