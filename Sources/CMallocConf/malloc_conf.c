/* jemalloc's settings for hammock, which jemalloc reads from this symbol as it starts (before
   main). One arena for every thread: each thread keeps its own cache of small blocks in front of
   it, so the transfer thread and the main actor's thread rarely meet at its lock, and one arena
   keeps one high-water mark of freed memory, not one per thread. The per-thread cache keeps its
   default reach (32 KiB), so libcurl's 16 KiB download buffer, allocated and freed once per
   transfer, comes from the thread's cache, not the arena. MALLOC_CONF in the environment still
   wins, option by option. docs/performance-journal.md. */
#include "malloc_conf.h"

const char *malloc_conf = "narenas:1";
