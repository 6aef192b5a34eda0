// graph/tensor.h -- ge::Shape, the shape type host tiling code passes to the high-level APIs' tiling helpers
// (GetCumSumMaxMinTmpSize(const ge::Shape &srcShape, ...)). The part of the documented class those helpers and
// public op_host code use: construction from a dims vector, GetDimNum, GetDim, SetDim, GetDims, GetShapeSize.
#ifndef PYASC_SIM_SDK_GRAPH_TENSOR_H_
#define PYASC_SIM_SDK_GRAPH_TENSOR_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "graph/types.h"

namespace ge {
class Shape {
public:
    Shape() = default;
    explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
    void SetDim(size_t idx, int64_t value) {
        if (idx < dims_.size()) dims_[idx] = value;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    // the product of the dims (0 for a shape without dims)
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};
}  // namespace ge

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_GRAPH_TENSOR_H_
