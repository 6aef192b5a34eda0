"""pyasc.profiler: per-core, per-pipe timelines of the simulated NPU (re-exports pyasc_core.profiler)."""

from pyasc_core.profiler import PIPES, KernelSummary, Profile, ProfilerError, profile

__all__ = ["PIPES", "KernelSummary", "Profile", "ProfilerError", "profile"]
