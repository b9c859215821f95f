#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
/* libcurl for Swift: curl_easy_setopt and friends are variadic, which Swift cannot call, so each
   argument type gets a fixed-signature wrapper. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>

typedef size_t (*hc_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode hc_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hc_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hc_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hc_setopt_callback(CURL *handle, CURLoption option, hc_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hc_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode hc_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode hc_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode hc_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
/* Bytes handed to libcurl in memory (a certificate, a key, a CA bundle), copied by libcurl: no
   path for it or OpenSSL to open (and block on). */
static inline CURLcode hc_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob = { (void *)data, length, CURL_BLOB_COPY };
    return curl_easy_setopt(handle, option, &blob);
}
static inline CURLMcode hc_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
/* CURLMsg's result lives in a union. */
static inline CURLcode hc_message_result(const CURLMsg *message) { return message->data.result; }
static inline int hc_message_is_done(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }
/* The content encodings this libcurl decodes, in the order libcurl lists them for
   CURLOPT_ACCEPT_ENCODING "": bit 0 deflate and gzip (zlib), bit 1 br, bit 2 zstd. */
static inline int hc_decoders(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    if (!info) return 0;
    return ((info->features & CURL_VERSION_LIBZ) ? 1 : 0) | ((info->features & CURL_VERSION_BROTLI) ? 2 : 0)
        | ((info->features & CURL_VERSION_ZSTD) ? 4 : 0);
}

static const long HC_AUTH_BASIC = CURLAUTH_BASIC;
static const long HC_AUTH_DIGEST = CURLAUTH_DIGEST;

/* A cookie store several easy handles share (one per cookie jar), with its lock: handles are set
   up on one thread and run on another. */
typedef struct {
    CURLSH *share;
    pthread_mutex_t lock;
} hc_cookie_share;

static void hc_cookie_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *context) {
    (void)handle; (void)data; (void)access;
    pthread_mutex_lock(&((hc_cookie_share *)context)->lock);
}
static void hc_cookie_share_unlock(CURL *handle, curl_lock_data data, void *context) {
    (void)handle; (void)data;
    pthread_mutex_unlock(&((hc_cookie_share *)context)->lock);
}
static inline hc_cookie_share *hc_cookie_share_new(void) {
    hc_cookie_share *store = calloc(1, sizeof *store);
    if (!store) return NULL;
    store->share = curl_share_init();
    if (!store->share) { free(store); return NULL; }
    pthread_mutex_init(&store->lock, NULL);
    curl_share_setopt(store->share, CURLSHOPT_LOCKFUNC, hc_cookie_share_lock);
    curl_share_setopt(store->share, CURLSHOPT_UNLOCKFUNC, hc_cookie_share_unlock);
    curl_share_setopt(store->share, CURLSHOPT_USERDATA, store);
    curl_share_setopt(store->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
    return store;
}
static inline void hc_cookie_share_free(hc_cookie_share *store) {
    curl_share_cleanup(store->share);
    pthread_mutex_destroy(&store->lock);
    free(store);
}

/* Names the calling thread (glibc declares this only under _GNU_SOURCE). */
extern int pthread_setname_np(pthread_t thread, const char *name);
static inline int hc_name_this_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }

static const long HC_ERROR_SIZE = CURL_ERROR_SIZE;
static const long HC_GLOBAL_ALL = CURL_GLOBAL_ALL;
static const long HC_VERSION_NUM = LIBCURL_VERSION_NUM;

#endif
