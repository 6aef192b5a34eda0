// exe_graph/runtime/tiling_context.h -- gert::TilingContext and the runtime types its queries return
// (gert::Shape, StorageShape, Tensor, CompileTimeTensorDesc, RuntimeAttrs, TilingData), declared as the public
// GE / op-development reference documents them, so that an op project's host tiling header -- which declares its
// tiling class and `ge::graphStatus TilingXxx(gert::TilingContext *context)` over these types -- compiles when
// pyasc_sim.compile(tiling_header=...) includes it into the kernel build (to read its BEGIN_TILING_DATA_DEF
// structs). Host-only: CANN's op framework builds a TilingContext; the simulator never does, so the context's
// queries are declared without definitions (a kernel never calls them; one that did would fail to load naming the
// function). gert::Shape / StorageShape, whose documented behaviour is plain data, are defined.
#ifndef PYASC_SIM_SDK_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#define PYASC_SIM_SDK_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "platform/platform_infos_def.h"

namespace ge {
// ge::Format (FORMAT_ND ...): only the type name -- an op build defines FORMAT_* as preprocessor numbers
enum Format : int32_t;
}  // namespace ge

namespace gert {
// a runtime shape, laid out as documented: dim_num_ dims in a fixed array of kMaxDimNum (GetDimNum, GetDim,
// SetDim, AppendDim -- a no-op once kMaxDimNum dims are set --, SetDimNum, operator[] returning a reference,
// GetShapeSize = product of the dims, IsScalar = no dims, SetScalar)
class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) {
        for (int64_t d : dims) AppendDim(d);
    }
    size_t GetDimNum() const { return dim_num_; }
    void SetDimNum(size_t n) { dim_num_ = n < kMaxDimNum ? n : kMaxDimNum; }
    int64_t GetDim(size_t idx) const { return idx < dim_num_ ? dims_[idx] : 0; }
    void SetDim(size_t idx, int64_t value) {
        if (idx < dim_num_) dims_[idx] = value;
    }
    Shape &AppendDim(int64_t value) {
        if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = value;
        return *this;
    }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (size_t i = 0; i < dim_num_; ++i) n *= dims_[i];
        return n;
    }
    bool IsScalar() const { return dim_num_ == 0; }
    void SetScalar() { dim_num_ = 0; }
    const int64_t &operator[](size_t idx) const { return dims_[idx]; }
    int64_t &operator[](size_t idx) { return dims_[idx]; }
    bool operator==(const Shape &o) const {
        if (dim_num_ != o.dim_num_) return false;
        for (size_t i = 0; i < dim_num_; ++i)
            if (dims_[i] != o.dims_[i]) return false;
        return true;
    }
    bool operator!=(const Shape &o) const { return !(*this == o); }

private:
    size_t dim_num_ = 0;
    int64_t dims_[kMaxDimNum] = {};
};

// origin shape (the tensor's mathematical shape) and storage shape (its layout in memory)
class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    const Shape &GetOriginShape() const { return origin_; }
    const Shape &GetStorageShape() const { return storage_; }
    Shape &MutableOriginShape() { return origin_; }
    Shape &MutableStorageShape() { return storage_; }

private:
    Shape origin_;
    Shape storage_;
};

class Tensor {
public:
    const Shape &GetOriginShape() const;
    const Shape &GetStorageShape() const;
    int64_t GetShapeSize() const;
    ge::DataType GetDataType() const;
    ge::Format GetStorageFormat() const;
    ge::Format GetOriginFormat() const;
    template <typename T>
    const T *GetData() const { return static_cast<const T *>(GetAddr()); }
    const void *GetAddr() const;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const;
    ge::Format GetStorageFormat() const;
    ge::Format GetOriginFormat() const;
};

class RuntimeAttrs {
public:
    template <typename T>
    const T *GetAttrPointer(size_t index) const { return static_cast<const T *>(GetPointerByIndex(index)); }
    const int64_t *GetInt(size_t index) const { return GetAttrPointer<int64_t>(index); }
    const float *GetFloat(size_t index) const { return GetAttrPointer<float>(index); }
    const bool *GetBool(size_t index) const { return GetAttrPointer<bool>(index); }
    const char *GetStr(size_t index) const { return GetAttrPointer<char>(index); }
    size_t GetAttrNum() const;

private:
    const void *GetPointerByIndex(size_t index) const;
};

class TilingData {
public:
    void *GetData();
    size_t GetCapacity() const;
    size_t GetDataSize() const;
    void SetDataSize(size_t size);
};

class TilingContext {
public:
    const StorageShape *GetInputShape(const size_t index) const;
    const Tensor *GetInputTensor(const size_t index) const;
    const Tensor *GetOptionalInputTensor(const size_t ir_index) const;
    const Tensor *GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const;
    const Tensor *GetRequiredInputTensor(const size_t ir_index) const;
    const StorageShape *GetOptionalInputShape(const size_t ir_index) const;
    const StorageShape *GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const;
    const StorageShape *GetRequiredInputShape(const size_t ir_index) const;
    const StorageShape *GetOutputShape(size_t index) const;
    ge::graphStatus SetTilingKey(const uint64_t tiling_key);
    uint64_t GetTilingKey() const;
    ge::graphStatus SetBlockDim(const uint32_t block_dim);
    uint32_t GetBlockDim() const;
    ge::graphStatus SetTilingCond(int32_t tiling_cond);
    int32_t GetTilingCond() const;
    ge::graphStatus SetNeedAtomic(const bool atomic);
    bool NeedAtomic() const;
    template <typename T>
    auto GetTilingData() -> T * { return static_cast<T *>(GetRawTilingData()->GetData()); }
    TilingData *GetRawTilingData();
    size_t *GetWorkspaceSizes(const size_t workspace_count);
    size_t GetWorkspaceNum() const;
    fe::PlatFormInfos *GetPlatformInfo() const;
    template <typename T>
    const T *GetCompileInfo() const { return static_cast<const T *>(GetCompileInfoPtr()); }
    ge::graphStatus SetScheduleMode(const uint32_t schedule_mode);
    uint32_t GetScheduleMode() const;
    // the SIMT operators' local memory (SetLocalMemorySize page; deprecated for SetDynUBufSize in newer releases)
    ge::graphStatus SetLocalMemorySize(const uint32_t local_memory_size);
    uint32_t GetLocalMemorySize();
    ge::graphStatus SetDynUBufSize(const uint32_t dyn_ubuf_size);
    uint32_t GetDynUBufSize();
    // ExtendedKernelContext's queries host tiling code uses next to them
    const RuntimeAttrs *GetAttrs() const;
    const CompileTimeTensorDesc *GetInputDesc(size_t index) const;
    const CompileTimeTensorDesc *GetOptionalInputDesc(size_t ir_index) const;
    const CompileTimeTensorDesc *GetOutputDesc(size_t index) const;
    size_t GetComputeNodeInputNum() const;
    const char *GetNodeName() const;
    const char *GetNodeType() const;

private:
    const void *GetCompileInfoPtr() const;
};

class InferShapeContext;
class InferDataTypeContext;
class TilingParseContext;
}  // namespace gert

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
