// Ascend C on the CPU -- ListTensorDesc / TensorDesc (reference pages ListTensorDesc, atlasascendc_api_07_0009,
// and TensorDesc, atlasascendc_api_07_0010; header kernel_operator_list_tensor_intf.h): a kernel's view of a
// tensor-list argument, the GM block the framework lays out as
//   word 0: the byte offset of the data-pointer table from the block's start;
//   then one descriptor per tensor: a header word (dim in the low 32 bits, the tensor's index in the high 32)
//   followed by its dim shape words -- every tensor of the list has the same dim -- or, when dim is 0 (the
//   tensors carry pointers only), one header word whose high half is the count, then 0xffffffff;
//   then the table of the tensors' data addresses, one uint64 each.
// Init checks that layout (and, when given, the length in bytes and the pointer count it is documented to
// check); GetDesc fills a TensorDesc whose shape address SetShapeAddr set first (the page's rule).
#ifndef PYASC_SIM_KAPI_LIST_TENSOR_H_
#define PYASC_SIM_KAPI_LIST_TENSOR_H_

#include <cstdint>

#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {
class ListTensorDesc;

template <class T>
class TensorDesc {
public:
    TensorDesc() {}
    ~TensorDesc() {}
    // Where GetDesc writes the tensor's dim shape words.
    void SetShapeAddr(uint64_t *shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() { return dim_; }
    uint64_t GetIndex() { return index_; }
    uint64_t GetShape(uint32_t offset, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        if (shape_ == nullptr || offset >= dim_) {
            pyasc_sim::kapi::fail("invalid-argument", loc,
                                  "TensorDesc::GetShape(%u): the tensor has %u dimensions%s", offset, dim_,
                                  shape_ == nullptr ? " and no shape address (SetShapeAddr, then GetDesc)" : "");
        }
        return shape_[offset];
    }
    __gm__ T *GetDataPtr() { return data_; }
    GlobalTensor<T> GetDataObj() {
        GlobalTensor<T> g;
        uint64_t n = 1;
        for (uint32_t i = 0; i < dim_ && shape_ != nullptr; ++i) n *= shape_[i];
        if (dim_ != 0 && shape_ != nullptr) {
            g.SetGlobalBuffer(data_, n);
        } else {
            g.SetGlobalBuffer(data_);
        }
        return g;
    }

private:
    friend class ListTensorDesc;
    uint64_t *shape_ = nullptr;
    uint32_t dim_ = 0;
    uint32_t index_ = 0;
    __gm__ T *data_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() {}
    ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                   pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        Init(data, length, shapeSize, loc);
    }
    void Init(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
              pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        if (data == nullptr) {
            pyasc_sim::kapi::fail("invalid-argument", loc, "ListTensorDesc::Init(data): data is null");
        }
        const auto *words = reinterpret_cast<const uint64_t *>(data);
        const uint64_t ptrOffset = words[0];
        shapes_ = words + 1;
        dim_ = static_cast<uint32_t>(shapes_[0] & 0xffffffffu);
        const uint32_t high = static_cast<uint32_t>(shapes_[0] >> 32);
        descWords_ = dim_ == 0 ? 2 : 1 + dim_;
        if (ptrOffset % 8 != 0 || ptrOffset < 8 * (1 + descWords_)) {
            bad(loc, "its data-pointer offset %llu is not a multiple of 8 past the descriptors",
                static_cast<unsigned long long>(ptrOffset));
        }
        ptrs_ = words + ptrOffset / 8;
        count_ = high != 0 ? high : static_cast<uint32_t>(ptrs_[-static_cast<int64_t>(descWords_)] >> 32) + 1;
        const bool ok = dim_ != 0 ? count_ == (ptrOffset - 8) / (8 * descWords_)
                                  : shapes_[1] == 0xffffffffu && ptrOffset == 24;
        if (!ok) {
            bad(loc, "%u tensors of dim %u do not fill the %llu bytes before the data pointers", count_, dim_,
                static_cast<unsigned long long>(ptrOffset));
        }
        if (length != 0xffffffff && shapeSize != 0xffffffff &&
            (count_ != shapeSize || length != ptrOffset + 8ull * count_)) {
            bad(loc, "it holds %u pointers in %llu bytes, not shapeSize %u in length %u", count_,
                static_cast<unsigned long long>(ptrOffset + 8ull * count_), shapeSize, length);
        }
    }
    // The tensor index's dim, index, shape (into the address SetShapeAddr gave desc) and data address.
    template <class T>
    void GetDesc(TensorDesc<T> &desc, uint32_t index, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        check_index(index, "GetDesc", loc);
        const uint64_t *d = dim_ == 0 ? shapes_ : shapes_ + static_cast<uint64_t>(index) * descWords_;
        desc.dim_ = static_cast<uint32_t>(d[0] & 0xffffffffu);
        desc.index_ = index;
        if (desc.dim_ != 0 && desc.shape_ == nullptr) {
            pyasc_sim::kapi::fail("invalid-argument", loc,
                                  "ListTensorDesc::GetDesc(desc, %u): desc has no shape address (call "
                                  "desc.SetShapeAddr(buffer of %u uint64_t) first)",
                                  index, desc.dim_);
        }
        for (uint32_t i = 0; i < desc.dim_; ++i) desc.shape_[i] = d[1 + i];
        desc.data_ = reinterpret_cast<__gm__ T *>(ptrs_[index]);
    }
    template <class T>
    __gm__ T *GetDataPtr(uint32_t index, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        check_index(index, "GetDataPtr", loc);
        return reinterpret_cast<__gm__ T *>(ptrs_[index]);
    }
    uint32_t GetSize() { return count_; }

private:
    void check_index(uint32_t index, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (ptrs_ == nullptr) {
            pyasc_sim::kapi::fail("invalid-argument", loc, "ListTensorDesc::%s(%u): Init was never called", what,
                                  index);
        }
        if (index >= count_) {
            pyasc_sim::kapi::fail("invalid-argument", loc, "ListTensorDesc::%s(%u): the list holds %u tensors", what,
                                  index, count_);
        }
    }
    template <typename... A>
    [[noreturn]] static void bad(const pyasc_sim::kapi::SrcLoc &loc, const char *fmt, A... a) {
        char msg[256];
        std::snprintf(msg, sizeof msg, fmt, a...);
        pyasc_sim::kapi::fail("invalid-argument", loc, "ListTensorDesc::Init: the data is not a tensor list: %s", msg);
    }
    const uint64_t *shapes_ = nullptr;
    const uint64_t *ptrs_ = nullptr;
    uint32_t dim_ = 0;
    uint32_t descWords_ = 0;
    uint32_t count_ = 0;
};
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_LIST_TENSOR_H_
