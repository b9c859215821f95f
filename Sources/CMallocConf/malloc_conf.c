/* jemalloc's settings for hammock, which jemalloc reads from this symbol as it starts (before
   main). One arena for every thread: each thread keeps its own cache of small blocks in front of
   it, so the transfer thread and the main actor's thread rarely meet at its lock, and one arena
   keeps one high-water mark of freed memory, not one per thread. Blocks up to 4 KiB are cached
   per thread (32 KiB by default): as fast at 1,000 endpoints, half a MiB less resident at 50.
   MALLOC_CONF in the environment still wins, option by option. DECISIONS §17. */
#include "malloc_conf.h"

const char *malloc_conf = "narenas:1,tcache_max:4096";
