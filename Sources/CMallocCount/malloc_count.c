/* Counts malloc, calloc, realloc and the aligned allocators, then hands each to glibc's own
   (__libc_*), so the count costs one atomic add per allocation. The counter lives in a shared
   mapping of the file HAMMOCK_MALLOC_COUNT_FILE names (created by the bench), so it can be read
   from outside at any moment. Without that variable it counts into a private word. */
#define _GNU_SOURCE
#include "malloc_count.h"
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static uint64_t private_count;
static uint64_t *counter = &private_count;

__attribute__((constructor)) static void hammock_malloc_count_init(void) {
    const char *path = getenv("HAMMOCK_MALLOC_COUNT_FILE");
    if (!path) return;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    void *mapped = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (mapped != MAP_FAILED) counter = mapped;
}

static inline void count(void) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}
