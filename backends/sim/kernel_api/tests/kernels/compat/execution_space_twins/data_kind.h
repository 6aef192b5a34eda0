// Shared host-side header of our execution_space_twins kernel, in the style of sgl-kernel-npu's zccl.h: a data-kind
// enum and a host helper in a namespace, next to the host launcher's declarations.
#ifndef EXECUTION_SPACE_TWINS_DATA_KIND_H
#define EXECUTION_SPACE_TWINS_DATA_KIND_H

#include <cstdint>

enum DataKind { DATA_KIND_INT8 = 0, DATA_KIND_HALF = 1, DATA_KIND_FLOAT = 2 };

namespace twin_demo {

// host: bytes per element (a host launcher sizes its buffers with it). No execution-space qualifier, so the NPU
// compiler makes it a host function that kernel code cannot call.
inline uint32_t KindScale(DataKind kind)
{
    switch (kind) {
        case DATA_KIND_INT8:
            return 1;
        case DATA_KIND_HALF:
            return 2;
        default:
            return 4;
    }
}

}  // namespace twin_demo

#endif  // EXECUTION_SPACE_TWINS_DATA_KIND_H
