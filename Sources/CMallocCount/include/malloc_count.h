#ifndef HAMMOCK_MALLOC_COUNT_H
#define HAMMOCK_MALLOC_COUNT_H
/* Loaded with LD_PRELOAD by `hammock-bench`: counts the process's heap allocations into the
   8-byte file named by HAMMOCK_MALLOC_COUNT_FILE, which the bench reads while the process runs. */
#endif
