// The C floor's loop in Swift with no Foundation (the Swift runtime and libcurl alone): one multi
// handle, N easy handles made once and reused, the answers thrown away. `hammock-bench` runs it
// beside `hammock` to show what a Swift program with this libcurl costs before it does anything of
// its own: the least the 20 MiB goal at 50 endpoints leaves room for (docs/performance-journal.md).
//
//     usage: hammock-swift-floor BASE_URL N SECONDS     (requests BASE_URL e/0 … e/N-1 every second)
import CCurl
import Glibc

private let discard: hc_data_callback = { _, size, count, _ in size * count }

private func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let n = Int(arguments[2]), let seconds = Int(arguments[3]), n > 0, seconds > 0 else {
    let usage = "usage: hammock-swift-floor BASE_URL N SECONDS\n"
    _ = write(2, usage, usage.utf8.count)
    exit(2)
}
let base = arguments[1]
curl_global_init(Int(CURL_GLOBAL_ALL))
let multi = curl_multi_init()
var handles: [UnsafeMutableRawPointer?] = []
for i in 0..<n {
    let handle = curl_easy_init()
    _ = hc_setopt_pointer(handle, CURLOPT_URL, "\(base)e/\(i)")
    _ = hc_setopt_callback(handle, CURLOPT_WRITEFUNCTION, discard)
    _ = hc_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
    _ = hc_setopt_long(handle, CURLOPT_TIMEOUT_MS, 5000)
    handles.append(handle)
}
for _ in 0..<seconds {
    let started = now()
    for handle in handles { curl_multi_add_handle(multi, handle) }
    var running = Int32(n)
    while running > 0 {
        curl_multi_perform(multi, &running)
        if running > 0 { curl_multi_poll(multi, nil, 0, 1000, nil) }
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            if hc_message_is_done(message) != 0 { curl_multi_remove_handle(multi, message.pointee.easy_handle) }
        }
    }
    let rest = 1 - (now() - started)
    if rest > 0 { usleep(useconds_t(rest * 1e6)) }
}
for handle in handles { curl_easy_cleanup(handle) }
curl_multi_cleanup(multi)
curl_global_cleanup()
