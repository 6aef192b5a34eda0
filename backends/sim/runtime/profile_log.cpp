#include "profile_log.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace pyasc_sim {

namespace {
std::mutex g_log_mu;
std::atomic<uint64_t> g_launch_seq{0};
}  // namespace

std::string profile_dir() {
    const char *env = std::getenv("PYASC_SIM_PROFILE_DIR");
    return env != nullptr ? std::string(env) : std::string();
}

uint64_t profile_span_cap() {
    const char *env = std::getenv("PYASC_SIM_PROFILE_SPANS");
    if (env == nullptr || env[0] == '\0') return 1000000u;
    char *end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    return end != env && *end == '\0' ? static_cast<uint64_t>(v) : 1000000u;
}

std::string profile_launch_prefix(const std::string &dir) {
    return dir + "/launch-" + std::to_string(static_cast<long>(getpid())) + "-" + std::to_string(++g_launch_seq);
}

void profile_log(const std::string &dir, const std::string &json) {
    std::lock_guard<std::mutex> lock(g_log_mu);
    const std::string path = dir + "/host.jsonl";
    if (FILE *f = std::fopen(path.c_str(), "a")) {
        std::fprintf(f, "%s\n", json.c_str());
        std::fclose(f);
    }
}

std::string json_string(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

}  // namespace pyasc_sim
