// SoC profiles of the simulated device: one table, selected by PYASC_SIM_SOC.
#ifndef PYASC_SIM_SOC_PROFILE_H_
#define PYASC_SIM_SOC_PROFILE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace pyasc_sim {

struct SocProfile {
    const char *name;          // value of aclrtGetSocName
    uint32_t cube_cores;       // AI Cores (AIC) -- ACL_DEV_ATTR_AICORE_CORE_NUM / CUBE_CORE_NUM
    uint32_t vector_cores;     // AIV cores -- ACL_DEV_ATTR_VECTOR_CORE_NUM
    uint32_t aicpu_cores;      // ACL_DEV_ATTR_AICPU_CORE_NUM (estimate)
    size_t ub_bytes;           // Unified Buffer per vector core
    size_t l1_bytes;           // L1 per cube core
    size_t l0a_bytes;
    size_t l0b_bytes;
    size_t l0c_bytes;
    size_t l2_bytes;           // ACL_DEV_ATTR_L2_CACHE_SIZE (estimate)
    double hbm_bandwidth_gbps; // GB/s (estimate)
    double clock_ghz;          // AI Core clock (estimate)
    // AI CPU figures (estimates): the fixed cost of an AI CPU task (scheduling it on the device's
    // control CPUs), and how much longer an AI CPU core takes than the host core that runs it.
    double aicpu_launch_ns;
    double aicpu_slowdown;
};

// The default profile (Ascend910B1).
const SocProfile &default_soc_profile();
// Looks a profile up by name; nullptr when unknown.
const SocProfile *find_soc_profile(const std::string &name);
// Profile named by env PYASC_SIM_SOC (default profile when unset or empty);
// nullptr when the variable names an unknown SoC.
const SocProfile *soc_profile_from_env();
// Comma-separated list of the known names, for error messages.
std::string known_soc_names();

}  // namespace pyasc_sim

#endif  // PYASC_SIM_SOC_PROFILE_H_
