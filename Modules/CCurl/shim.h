#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
/* libcurl for Swift: curl_easy_setopt and friends are variadic, which Swift cannot call, so each
   argument type gets a fixed-signature wrapper. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

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
static inline CURLMcode hc_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
/* CURLMsg's result lives in a union. */
static inline CURLcode hc_message_result(const CURLMsg *message) { return message->data.result; }
static inline int hc_message_is_done(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }

static const long HC_ERROR_SIZE = CURL_ERROR_SIZE;
static const long HC_GLOBAL_ALL = CURL_GLOBAL_ALL;
static const long HC_VERSION_NUM = LIBCURL_VERSION_NUM;

#endif
