/* The floor for polling N endpoints every second with libcurl and nothing else: one multi
   handle, N easy handles made once and reused (so connections and DNS stay cached), the answers
   thrown away. `hammock-bench` runs it beside `hammock` to show what the transport alone costs.

   usage: hammock-curl-floor BASE_URL N SECONDS     (requests BASE_URL e/0 … e/N-1 every second) */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data; (void)context;
    return size * count;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s BASE_URL N SECONDS\n", argv[0]);
        return 2;
    }
    const char *base = argv[1];
    int n = atoi(argv[2]), seconds = atoi(argv[3]);
    if (n <= 0 || seconds <= 0) return 2;
    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    CURL **handles = calloc((size_t)n, sizeof *handles);
    char url[4096];
    for (int i = 0; i < n; i++) {
        handles[i] = curl_easy_init();
        snprintf(url, sizeof url, "%se/%d", base, i);
        curl_easy_setopt(handles[i], CURLOPT_URL, url);
        curl_easy_setopt(handles[i], CURLOPT_WRITEFUNCTION, discard);
        curl_easy_setopt(handles[i], CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(handles[i], CURLOPT_TIMEOUT_MS, 5000L);
    }
    for (int second = 0; second < seconds; second++) {
        double started = now();
        for (int i = 0; i < n; i++) curl_multi_add_handle(multi, handles[i]);
        int running = n;
        while (running > 0) {
            curl_multi_perform(multi, &running);
            if (running > 0) curl_multi_poll(multi, NULL, 0, 1000, NULL);
            int left;
            CURLMsg *message;
            while ((message = curl_multi_info_read(multi, &left)))
                if (message->msg == CURLMSG_DONE) curl_multi_remove_handle(multi, message->easy_handle);
        }
        double rest = 1 - (now() - started);
        if (rest > 0) usleep((useconds_t)(rest * 1e6));
    }
    for (int i = 0; i < n; i++) curl_easy_cleanup(handles[i]);
    free(handles);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return 0;
}
