// The profiler's host side: while PYASC_SIM_PROFILE_DIR names a directory (pyasc.profiler sets
// it), launches, copies and stream waits append one JSON line each to <dir>/host.jsonl, with their
// simulated start and end on their stream's clock; a launch's per-block spans come from the device
// process in <dir>/launch-<n>.{json,spans}.
#ifndef PYASC_SIM_PROFILE_LOG_H_
#define PYASC_SIM_PROFILE_LOG_H_

#include <cstdint>
#include <cstdio>
#include <string>

namespace pyasc_sim {

// The profile directory, or "" when not profiling (read at every call: the profiler may start and
// stop between launches).
std::string profile_dir();
// Spans a launch keeps at most (PYASC_SIM_PROFILE_SPANS, default one million).
uint64_t profile_span_cap();
// A fresh file prefix <dir>/launch-<n> for the next profiled launch.
std::string profile_launch_prefix(const std::string &dir);
// Appends one JSON object (its text without newline) to <dir>/host.jsonl.
void profile_log(const std::string &dir, const std::string &json);
// A stream's id in the records: 0 for the default stream, else its address.
template <class S>
unsigned long long profile_stream_id(const S &st) {
    return st.is_default() ? 0ull : static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(&st));
}
// A host-side task of stream st (a copy, a memset, an event wait) that ran on its clock from
// start_ns to st.clock_ns: one record when profiling.
template <class S>
void profile_task(const S &st, const char *what, double start_ns, uint64_t bytes);
// s as a JSON string literal.
std::string json_string(const std::string &s);

std::string json_string(const std::string &s);

template <class S>
void profile_task(const S &st, const char *what, double start_ns, uint64_t bytes) {
    const std::string dir = profile_dir();
    if (dir.empty()) return;
    char buf[512];
    std::snprintf(buf, sizeof(buf),
                  "{\"type\": \"task\", \"device\": %d, \"stream\": %llu, \"name\": %s, \"bytes\": %llu, "
                  "\"start_ns\": %.17g, \"end_ns\": %.17g}",
                  static_cast<int>(st.device()->id), profile_stream_id(st), json_string(what).c_str(),
                  static_cast<unsigned long long>(bytes), start_ns, st.clock_ns);
    profile_log(dir, buf);
}

}  // namespace pyasc_sim

#endif  // PYASC_SIM_PROFILE_LOG_H_
