// Tiling struct in the style of engine-side Ascend C kernels: it names uint32_t / size_t before the
// file includes anything (the NPU toolchain makes them visible; pyasc's compile step pre-includes
// stdint.h / stddef.h). Written for pyasc.
#pragma once

namespace study {

struct RoundTiling {
    uint32_t count;     // elements per block (a multiple of 16)
    uint32_t reserved;
    size_t unused;
};

}  // namespace study
