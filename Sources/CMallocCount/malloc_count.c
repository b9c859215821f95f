/* Counts malloc, calloc, realloc and the aligned allocators, then hands each to the allocator the
   process would have used without it (the next definition: jemalloc for hammock, glibc's for the
   floors), so the count costs one atomic add per allocation. The counter lives in a shared
   mapping of the file HAMMOCK_MALLOC_COUNT_FILE names (created by the bench), so it can be read
   from outside at any moment. Without that variable it counts into a private word.

   The next allocator's functions are looked up with dlsym, which may itself allocate: those few
   blocks come from a static buffer, and free leaves them alone. */
#define _GNU_SOURCE
#include "malloc_count.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t private_count;
static uint64_t *counter = &private_count;

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static int (*next_posix_memalign)(void **, size_t, size_t);

/* Blocks handed out while dlsym runs, before the next allocator is known. */
static _Alignas(16) unsigned char bootstrap[16384];
static size_t bootstrap_used;

static int in_bootstrap(const void *pointer) {
    return (const unsigned char *)pointer >= bootstrap && (const unsigned char *)pointer < bootstrap + sizeof bootstrap;
}

static void *bootstrap_alloc(size_t size) {
    size_t start = (bootstrap_used + 15) & ~(size_t)15;
    if (start + size > sizeof bootstrap) return NULL;
    bootstrap_used = start + size;
    return bootstrap + start;
}

static void resolve(void) {
    static int resolving;
    if (next_malloc || resolving) return;
    resolving = 1;
    next_calloc = dlsym(RTLD_NEXT, "calloc");
    next_realloc = dlsym(RTLD_NEXT, "realloc");
    next_free = dlsym(RTLD_NEXT, "free");
    next_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    next_malloc = dlsym(RTLD_NEXT, "malloc");
    resolving = 0;
}

__attribute__((constructor)) static void hammock_malloc_count_init(void) {
    resolve();
    const char *path = getenv("HAMMOCK_MALLOC_COUNT_FILE");
    if (!path) return;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    void *mapped = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (mapped != MAP_FAILED) counter = mapped;
}

static inline void count(void) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    resolve();
    if (!next_malloc) return bootstrap_alloc(size);
    count();
    return next_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    resolve();
    if (!next_calloc) {
        if (size && count_ > SIZE_MAX / size) return NULL;
        return bootstrap_alloc(count_ * size); /* static, so already zero */
    }
    count();
    return next_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    resolve();
    if (in_bootstrap(pointer) || !next_realloc) {
        void *moved = malloc(size);
        if (moved && pointer) {
            size_t readable = (size_t)(bootstrap + sizeof bootstrap - (unsigned char *)pointer);
            memcpy(moved, pointer, size < readable ? size : readable);
        }
        return moved;
    }
    count();
    return next_realloc(pointer, size);
}

void free(void *pointer) {
    if (!pointer || in_bootstrap(pointer)) return;
    resolve();
    if (next_free) next_free(pointer);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    resolve();
    if (!next_posix_memalign) return ENOMEM;
    count();
    return next_posix_memalign(result, alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    void *pointer = NULL;
    return posix_memalign(&pointer, alignment, size) == 0 ? pointer : NULL;
}

void *memalign(size_t alignment, size_t size) { return aligned_alloc(alignment, size); }
