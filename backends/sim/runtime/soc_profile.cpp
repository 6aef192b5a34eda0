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
