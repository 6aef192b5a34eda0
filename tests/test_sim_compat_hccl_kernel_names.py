"""Names of the SDK's HCCL kernel header that MC2 kernels size their window-context structs with, round 35 (s35a;
COMPAT.md "Round 35 (s35a)"): ``AscendC::HCCL_MAX_RANK_NUM`` (32), ``AscendC::MemDetails {size, addr, key}``,
``AscendC::IbVerbsData {remoteInput, remoteOutput, localInput, localOutput, res[24]}`` (reached through
``kernel_operator.h`` and the SDK path ``lib/hccl/hccl.h``), and ``AscendC::CACHE_LINE_SIZE`` (64, the SDK's
kernel_utils_constants.h for ``__CCE_AICORE__`` 220 / 300 / M310, not the 200). sgl-kernel-npu's deepep ops2
``moe_distribute_base.h`` declares ``HcclA2CombineOpParam`` with them and rounds addresses to the cache line in
``cacheWriteThrough``. Host programs compiled with the kernel API's include order (no kernel build)."""

from __future__ import annotations

import subprocess

from ascendc_kernels import host_syntax

# a window-context struct written the way the ops2 header writes its own, and the cache-line rounding it does
USES = """
#include <cstddef>
#include <type_traits>
struct WinContext {
    uint64_t workSpace;
    uint64_t workSpaceSize;
    uint32_t rankId;
    uint32_t rankNum;
    uint64_t winSize;
    uint64_t windowsIn[AscendC::HCCL_MAX_RANK_NUM];
    uint64_t windowsOut[AscendC::HCCL_MAX_RANK_NUM];
    __gm__ AscendC::IbVerbsData *data;
};
constexpr uint64_t LineStart(uint64_t addr) { return addr / AscendC::CACHE_LINE_SIZE * AscendC::CACHE_LINE_SIZE; }
static_assert(AscendC::HCCL_MAX_RANK_NUM == 32U, "rank bound");
static_assert(std::is_same<decltype(AscendC::HCCL_MAX_RANK_NUM), const uint32_t>::value, "uint32_t");
static_assert(offsetof(WinContext, windowsOut) == 32 + 32 * 8 && offsetof(WinContext, data) == 32 + 64 * 8, "windows");
static_assert(sizeof(AscendC::MemDetails) == 24 && offsetof(AscendC::MemDetails, addr) == 8 &&
              offsetof(AscendC::MemDetails, key) == 16, "MemDetails{size, addr, key}");
static_assert(sizeof(AscendC::IbVerbsData) == 120 && offsetof(AscendC::IbVerbsData, remoteOutput) == 24 &&
              offsetof(AscendC::IbVerbsData, localInput) == 48 && offsetof(AscendC::IbVerbsData, localOutput) == 72 &&
              offsetof(AscendC::IbVerbsData, res) == 96, "IbVerbsData: four MemDetails, res[24]");
static_assert(std::is_same<decltype(AscendC::CACHE_LINE_SIZE), const uint32_t>::value, "uint32_t");
static_assert(LineStart(0x1000 + 63) == 0x1000 && LineStart(0x1000 + 64) == 0x1040, "64-byte line");
int main() {}
"""


def _syntax(tmp_path, text: str, *flags: str) -> subprocess.CompletedProcess:
    return host_syntax(tmp_path, text, before=flags)


def test_the_hccl_header_names_have_the_sdk_values_and_layout(tmp_path):
    proc = _syntax(tmp_path, '#include "kernel_operator.h"\n' + USES)
    assert proc.returncode == 0, proc.stderr


def test_the_names_are_hidden_in_documented_only_mode(tmp_path):
    # none of them is in the Ascend C reference
    proc = _syntax(tmp_path, '#include "kernel_operator.h"\n' + USES, "-DPYASC_SIM_DOCUMENTED_ONLY=1")
    assert proc.returncode != 0
    for name in ("HCCL_MAX_RANK_NUM", "IbVerbsData", "MemDetails", "CACHE_LINE_SIZE"):
        assert f"'{name}' is not a member of 'AscendC'" in proc.stderr.replace("\u2018", "'").replace("\u2019", "'"), \
            proc.stderr[:3000]


def test_the_sdk_path_and_no_cache_line_size_on_the_atlas_inference_series(tmp_path):
    # the SDK path lib/hccl/hccl.h brings the HCCL names; the SDK declares CACHE_LINE_SIZE for __CCE_AICORE__
    # 220 / 300 / M310 only, so on the 200 its use is the program's one error
    text = ('#include "lib/hccl/hccl.h"\n#include <type_traits>\n'
            "static_assert(AscendC::HCCL_MAX_RANK_NUM == 32U && sizeof(AscendC::IbVerbsData) == 120, \"\");\n"
            "int main() { return static_cast<int>(AscendC::CACHE_LINE_SIZE); }\n")
    proc = _syntax(tmp_path, text, "-D__CCE_AICORE__=200")
    errors = [line for line in proc.stderr.replace("\u2018", "'").replace("\u2019", "'").splitlines() if "error:" in line]
    assert len(errors) == 1 and "'CACHE_LINE_SIZE' is not a member of 'AscendC'" in errors[0], proc.stderr[:3000]
