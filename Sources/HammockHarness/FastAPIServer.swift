import Foundation
import Glibc

/// A FastAPI app on 127.0.0.1 (Debian's python3-fastapi under uvicorn), for the tests of
/// `hammock init --from`: an inventory API whose `/openapi.json` FastAPI writes itself.
///
/// Routes: `/items` (a list of items), `/items/{item_id}` (one), `/status` (an object),
/// `/search?q=` (a required query parameter without an example), `/healthz` (plain text).
public final class FastAPIServer: @unchecked Sendable {
    private let process: PortPrintingProcess
    private let directory: String
    /// `http://127.0.0.1:PORT/`
    public var baseURL: String { "http://127.0.0.1:\(process.port)/" }

    /// Whether this machine can run one.
    public static var available: Bool {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        check.arguments = ["-c", "import fastapi, uvicorn"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    public init() throws {
        directory = ScratchDirectory.path("fastapi")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/app.py"
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        process = try PortPrintingProcess(["/usr/bin/python3", script], in: directory, what: "the FastAPI app") { output in
            output.split(separator: "\n").first.flatMap { UInt16($0) }
        }
    }

    deinit { stop() }

    /// Ends the app.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static let script = #"""
        import socket, sys
        from typing import List
        import uvicorn
        from fastapi import FastAPI
        from fastapi.responses import PlainTextResponse
        from pydantic import BaseModel

        app = FastAPI(title="Inventory", version="2.0")

        class Item(BaseModel):
            id: int
            name: str
            price: float
            in_stock: bool

        ITEMS = [Item(id=1, name="hammock", price=49.5, in_stock=True), Item(id=2, name="rope", price=7.0, in_stock=False)]

        @app.get("/items", response_model=List[Item], tags=["items"], summary="All items")
        def items():
            return ITEMS

        @app.get("/items/{item_id}", response_model=Item, tags=["items"])
        def item(item_id: int):
            return ITEMS[item_id - 1]

        @app.get("/status", tags=["ops"])
        def status():
            return {"status": "ok", "version": "2.0"}

        @app.get("/search", response_model=List[Item])
        def search(q: str):
            return [i for i in ITEMS if q in i.name]

        @app.get("/healthz", response_class=PlainTextResponse, tags=["ops"])
        def healthz():
            return "OK"

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        # Listening before the port is announced: a request sent while uvicorn still starts waits
        # in the backlog instead of being refused (a CPU-heavy neighbour made that race lose).
        sock.listen(128)
        print(sock.getsockname()[1], flush=True)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        server.run(sockets=[sock])
        """#
}
