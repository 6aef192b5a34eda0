// Cost constants of the simulated device clock.
//
// Every number here is an ESTIMATE chosen to give plausible, self-consistent
// simulated times (events report them).  They are not measurements of any real
// device.  Per-SoC numbers (clock, HBM bandwidth) live in soc_profile.cpp.
#ifndef PYASC_SIM_COST_MODEL_H_
#define PYASC_SIM_COST_MODEL_H_

namespace pyasc_sim {
namespace cost {

// Host <-> device link bandwidth used for H2D / D2H copies (GB/s == bytes/ns).
constexpr double kHostLinkBandwidthGBps = 24.0;
// Fixed latency added to every asynchronous copy / memset task (ns).
constexpr double kCopyLatencyNs = 2000.0;
// A device-to-device copy reads and writes HBM: bytes moved = 2 * size.
constexpr double kDeviceCopyTrafficFactor = 2.0;
// Fixed overhead of a kernel launch task (ns).
constexpr double kLaunchOverheadNs = 3000.0;
// Cost of an event record / stream-wait task itself (ns).
constexpr double kEventTaskNs = 0.0;

}  // namespace cost
}  // namespace pyasc_sim

#endif  // PYASC_SIM_COST_MODEL_H_
