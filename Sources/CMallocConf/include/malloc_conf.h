#ifndef HAMMOCK_MALLOC_CONF_H
#define HAMMOCK_MALLOC_CONF_H

/* jemalloc's settings, as jemalloc looks them up in the program (see malloc_conf.c). */
extern const char *malloc_conf;

#endif
