#include "soc_profile.h"

#include <cstdlib>

namespace pyasc_sim {
namespace {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * KiB;

// Core counts and buffer sizes of the 910B family as stated in pyasc's design;
// L2 size, bandwidth, clock and the AI CPU figures are estimates.
const SocProfile kProfiles[] = {
    // name          cube vec aicpu  UB        L1        L0A      L0B      L0C       L2         HBM GB/s clock  AICPU launch ns, slowdown
    {"Ascend910B1", 24, 48, 6, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB, 192 * MiB, 1600.0, 1.8, 20000.0, 3.0},
    {"Ascend910B2", 24, 48, 6, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB, 192 * MiB, 1600.0, 1.8, 20000.0, 3.0},
    {"Ascend910B3", 20, 40, 6, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB, 192 * MiB, 1600.0, 1.8, 20000.0, 3.0},
    {"Ascend910B4", 20, 40, 6, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB, 96 * MiB, 800.0, 1.8, 20000.0, 3.0},
    // Atlas 350 / Ascend 950 (Server tier): 32 AIC, 64 AIV, UB 248 KiB usable (platform ub_size 253952),
    // L0C 256 KiB, L1 512 KiB, 1.6 TB/s, 1.65 GHz (the 950 whitepaper figures); L0A/L0B, L2 and AI CPU: estimates.
    {"Ascend950PR_9599", 32, 64, 6, 253952, 512 * KiB, 64 * KiB, 64 * KiB, 256 * KiB, 128 * MiB, 1600.0, 1.65, 20000.0, 3.0},
};

}  // namespace

const SocProfile &default_soc_profile() { return kProfiles[0]; }

const SocProfile *find_soc_profile(const std::string &name) {
    for (const SocProfile &p : kProfiles) {
        if (name == p.name) return &p;
    }
    return nullptr;
}

const SocProfile *soc_profile_from_env() {
    const char *env = std::getenv("PYASC_SIM_SOC");
    if (env == nullptr || env[0] == '\0') return &default_soc_profile();
    return find_soc_profile(env);
}

std::string known_soc_names() {
    std::string out;
    for (const SocProfile &p : kProfiles) {
        if (!out.empty()) out += ", ";
        out += p.name;
    }
    return out;
}

}  // namespace pyasc_sim
