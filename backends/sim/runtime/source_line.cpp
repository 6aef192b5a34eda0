#include "source_line.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

extern char **environ;

namespace pyasc_sim {

namespace {

// Closes a file descriptor on scope exit.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) close(fd);
    }
};

// Frames inside pyasc's kernel API (and the generated entry stubs) are not the kernel's statement.
bool is_api_frame(const std::string &file) {
    static const char *const kApi[] = {"/pyasc_sim/kapi/", "/kernel_api/include/", "/pyasc_sim/include/",
                                       "kernel_operator", "/stubs.cpp", "/c++/", "/bits/"};
    for (const char *p : kApi) {
        if (file.find(p) != std::string::npos) return true;
    }
    return false;
}

std::string addr2line_path() {
    for (const char *p : {"/usr/bin/addr2line", "/bin/addr2line", "/usr/local/bin/addr2line"}) {
        if (access(p, X_OK) == 0) return p;
    }
    return "addr2line";  // from PATH
}

}  // namespace

std::string pick_source_line(const std::string &out) {
    std::string first, chosen;
    size_t pos = 0;
    while (pos < out.size()) {
        size_t nl = out.find('\n', pos);
        if (nl == std::string::npos) nl = out.size();
        std::string line = out.substr(pos, nl - pos);
        pos = nl + 1;
        const size_t disc = line.find(" (discriminator");
        if (disc != std::string::npos) line.resize(disc);
        const size_t colon = line.rfind(':');
        if (line.empty() || line.compare(0, 2, "??") == 0 || colon == std::string::npos || colon + 1 >= line.size() ||
            line[colon + 1] == '?' || line.compare(colon + 1, std::string::npos, "0") == 0) {
            continue;
        }
        // the generated entry stubs live in a deleted build directory: never a useful location
        if (line.find("/stubs.cpp:") != std::string::npos) continue;
        if (first.empty()) first = line;
        if (chosen.empty() && !is_api_frame(line.substr(0, colon))) chosen = line;
    }
    if (chosen.empty()) return first;
    if (!first.empty() && first != chosen) return chosen + " (in " + first + ")";
    return chosen;
}

std::string source_line_at(const std::string &path, uint64_t vaddr, bool is_return) {
    if (path.empty() || (is_return && vaddr == 0)) return std::string();
    char addr[32];
    std::snprintf(addr, sizeof(addr), "0x%llx", static_cast<unsigned long long>(is_return ? vaddr - 1 : vaddr));
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return std::string();
    Fd rd{p[0]}, wr{p[1]};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, wr.fd, STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const std::string tool = addr2line_path();
    std::vector<char *> argv = {const_cast<char *>(tool.c_str()), const_cast<char *>("-i"),
                                const_cast<char *>("-e"), const_cast<char *>(path.c_str()), addr, nullptr};
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, tool.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(wr.fd);
    wr.fd = -1;
    if (rc != 0) return std::string();
    std::string out;
    char buf[1024];
    for (;;) {
        const ssize_t n = read(rd.fd, buf, sizeof(buf));
        if (n > 0) {
            out.append(buf, static_cast<size_t>(n));
            if (out.size() > 64 * 1024) break;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            break;
        }
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return pick_source_line(out);
}

}  // namespace pyasc_sim
