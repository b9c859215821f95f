import CCurl
import Glibc

/// A thread of its own for a loop that runs as long as the process (libcurl's transfer loop):
/// POSIX threads directly, named so `top -H` and a debugger say what it is.
enum DetachedThread {
    private final class Body {
        let name: String
        let run: () -> Void
        init(_ name: String, _ run: @escaping () -> Void) { (self.name, self.run) = (name, run) }
    }

    /// Starts `body` on a new detached thread named `name` (at most 15 bytes show).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(String(decoding: name.utf8.prefix(15), as: UTF8.self), body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            _ = hc_name_this_thread(body.name)
            body.run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            fatalError("cannot start the \(name) thread: \(String(cString: strerror(started)))")
        }
        pthread_detach(thread)
    }
}
