import CMalloc

/// glibc gives each thread that allocates its own heap ("arena"), up to eight per core. Hammock's
/// threads (the main actor, libcurl's transfer thread, the dispatch workers that parse and write
/// the cache) allocate in one and free in another, so every arena keeps its own high-water mark:
/// at 1,000 endpoints that was 30 MiB of the 86 MiB resident after two minutes. Two arenas hold
/// the same work in 42 MiB, as one did; with one, the transfer thread and the main actor's thread
/// waited for each other's lock on every allocation (at 5,000 endpoints a second, 6–9 % of
/// hammock's CPU in futex waits and wakes; 1–2 % with two). DECISIONS §17.
enum MallocArenas {
    /// Two arenas, unless the user has chosen otherwise (`MALLOC_ARENA_MAX`, `GLIBC_TUNABLES`).
    /// Called first thing in `main`, before other threads allocate.
    static func limit(environment: [String: String]) {
        if environment["MALLOC_ARENA_MAX"] != nil { return }
        if let tunables = environment["GLIBC_TUNABLES"], tunables.contains("arena_max") { return }
        _ = mallopt(M_ARENA_MAX, 2)
    }
}
