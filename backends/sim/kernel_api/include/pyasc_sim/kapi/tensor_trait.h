// Ascend C on the CPU -- TensorTrait tensors (LocalTensor<TensorTrait<T, pos, Layout>> /
// GlobalTensor<TensorTrait<...>>), their Layout / Shape / Stride, and the static-tensor
// constructor LocalTensor<TensorTrait<...>>(uint32_t addr).
//
// Reference pages: TensorTrait简介 (atlasascendc_api_07_0011 / _00120), MakeTensorTrait
// (_00124), Layout简介 (_00077), LocalTensor构造函数 (_00101).  What they document, and what is
// modelled:
//   * TensorTrait<T, pos = GM, LayoutType = Layout<Shape<>, Stride<>>>: LiteType = T,
//     LiteLayoutType, tPos; a constructor from the layout, GetLayout / SetLayout.  A tensor of a
//     TensorTrait type carries no ShapeInfo; its element type is the trait's LiteType (PrimT<T>).
//   * LocalTensor<T>(uint32_t addr) accepts TensorTrait types only: a tensor at byte address addr
//     of the memory behind the trait's position, with as many elements as its layout's shape
//     holds (the reference's example: Shape 16 x 16 x 16 of UIntImm -> 4096 elements).  addr lies
//     in [0, memory size) and is 32-byte aligned, and addr + elements * sizeof(T) stays inside the
//     memory: the sanitizer reports 'ub-alignment' / 'local-out-of-bounds' naming the call.  A
//     shape without compile-time extents (runtime integers, default-constructed to 0) or an empty
//     Shape<> gives no size: the simulator then lets the tensor reach to the end of the memory
//     (every access is still bounds-checked against the memory).
//   * One API call takes TensorTrait tensors only or plain tensors only (约束说明: an interface does
//     not accept TensorTrait and non-TensorTrait tensors together).  The all-TensorTrait forms of
//     DataCopy (count and DataCopyParams, GM <-> local and local -> local), the count forms of the
//     element-wise vector APIs (Add Sub Mul Div Max Min, Exp Ln Abs Relu Sqrt Rsqrt Reciprocal,
//     Adds Muls Maxs Mins), Duplicate and Cast are provided; they run the plain API on the
//     trait's LiteType.  Other APIs take the tensors after ReinterpretCast<LiteType>().
#ifndef PYASC_SIM_KAPI_TENSOR_TRAIT_H_
#define PYASC_SIM_KAPI_TENSOR_TRAIT_H_

#include <tuple>
#include <type_traits>

#include "pyasc_sim/kapi/data_copy.h"
#include "pyasc_sim/kapi/pipe.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

namespace Std {
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
template <typename T, T v>
using integral_constant = std::integral_constant<T, v>;
}  // namespace Std

// ---- Shape / Stride / Layout ------------------------------------------------------------------
template <typename... Ts>
struct Shape : Std::tuple<Ts...> {
    using Std::tuple<Ts...>::tuple;
    constexpr Shape() = default;
};
template <typename... Ts>
struct Stride : Std::tuple<Ts...> {
    using Std::tuple<Ts...>::tuple;
    constexpr Stride() = default;
};

template <typename ShapeType, typename StrideType>
struct Layout : private Std::tuple<ShapeType, StrideType> {
    constexpr Layout(const ShapeType &shape = {}, const StrideType &stride = {})
        : Std::tuple<ShapeType, StrideType>(shape, stride) {}
    constexpr decltype(auto) GetShape() { return Std::get<0>(base()); }
    constexpr decltype(auto) GetShape() const { return Std::get<0>(base()); }
    constexpr decltype(auto) GetStride() { return Std::get<1>(base()); }
    constexpr decltype(auto) GetStride() const { return Std::get<1>(base()); }

private:
    constexpr Std::tuple<ShapeType, StrideType> &base() { return *this; }
    constexpr const Std::tuple<ShapeType, StrideType> &base() const { return *this; }
};

template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts &...t) {
    return Shape<Ts...>(t...);
}
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts &...t) {
    return Stride<Ts...>(t...);
}
template <typename ShapeType, typename StrideType>
constexpr Layout<ShapeType, StrideType> MakeLayout(const ShapeType &shape, const StrideType &stride) {
    return Layout<ShapeType, StrideType>(shape, stride);
}

// ---- TensorTrait ------------------------------------------------------------------------------
template <typename T, TPosition pos = TPosition::GM, typename LayoutType = Layout<Shape<>, Stride<>>>
struct TensorTrait {
    using LiteType = T;
    using LiteLayoutType = LayoutType;
    static constexpr const TPosition tPos = pos;

    constexpr TensorTrait(const LayoutType &t = {}) : layout_(t) {}  // NOLINT: implicit as documented
    LayoutType &GetLayout() { return layout_; }
    const LayoutType &GetLayout() const { return layout_; }
    void SetLayout(const LayoutType &t) { layout_ = t; }

private:
    LayoutType layout_;
};

template <typename T, TPosition pos, typename LayoutType>
constexpr auto MakeTensorTrait(const LayoutType &t) {
    return TensorTrait<T, pos, LayoutType>(t);
}

template <typename T>
struct is_tensorTrait : std::false_type {};
template <typename T, TPosition pos, typename LayoutType>
struct is_tensorTrait<TensorTrait<T, pos, LayoutType>> : std::true_type {};

namespace sim_detail {
template <typename T>
struct prim_of {
    using type = T;
};
template <typename T, TPosition pos, typename L>
struct prim_of<TensorTrait<T, pos, L>> {
    using type = T;
};

// Elements a shape holds when every extent is a compile-time constant (integral_constant), else 0.
template <typename E>
struct static_extent : std::integral_constant<uint64_t, 0> {};
template <typename I, I v>
struct static_extent<std::integral_constant<I, v>> : std::integral_constant<uint64_t, static_cast<uint64_t>(v)> {};
template <typename... Ts>
struct static_extent<Shape<Ts...>>
    : std::integral_constant<uint64_t, sizeof...(Ts) == 0 ? 0 : (static_extent<Ts>::value * ... * 1)> {};
template <typename L>
struct layout_elements : std::integral_constant<uint64_t, 0> {};
template <typename S, typename D>
struct layout_elements<Layout<S, D>> : static_extent<S> {};
}  // namespace sim_detail

// The basic type of T, or the LiteType of a TensorTrait T.
template <typename T>
using PrimT = typename sim_detail::prim_of<T>::type;

// ---- LocalTensor / GlobalTensor of a TensorTrait type ----------------------------------------
// A view of LiteType elements (the plain tensor underneath: GetValue, SetValue, operator[],
// GetPhyAddr, ReinterpretCast, ... as for LocalTensor<LiteType>) plus the trait.
template <typename T, TPosition pos, typename L>
class LocalTensor<TensorTrait<T, pos, L>> : public LocalTensor<T> {
public:
    using Trait = TensorTrait<T, pos, L>;
    using PrimType = T;

    LocalTensor() = default;
    // Pipe framework (TQue::AllocTensor / DeQue, TBuf::Get with a TensorTrait type): the buffer
    // [begin, end) seen as LiteType elements from p on.
    LocalTensor(Trait *p, uint32_t, TPosition position, uint8_t *begin, uint8_t *end)
        : LocalTensor<T>(reinterpret_cast<T *>(p),
                         static_cast<uint32_t>((end - reinterpret_cast<uint8_t *>(p)) / static_cast<int64_t>(sizeof(T))),
                         position, begin, end) {}
    // Static tensor programming: LocalTensor<TensorTrait<T, pos, Layout>>(addr).
    explicit LocalTensor(uint32_t addr, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc())
        : LocalTensor<T>(at(addr, loc)) {}

    LocalTensor operator[](const uint32_t offset) const {
        LocalTensor r = *this;
        static_cast<LocalTensor<T> &>(r) = LocalTensor<T>::operator[](offset);
        return r;
    }
    void SetTensorTrait(const Trait &t) { trait_ = t; }
    Trait GetTensorTrait() const { return trait_; }
    decltype(auto) GetLayout() const { return trait_.GetLayout(); }
    decltype(auto) GetShape() const { return trait_.GetLayout().GetShape(); }
    decltype(auto) GetStride() const { return trait_.GetLayout().GetStride(); }

    // The plain tensor underneath (what the TensorTrait API forms run on).
    const LocalTensor<T> &sim_prim() const { return *this; }

private:
    static LocalTensor<T> at(uint32_t addr, const pyasc_sim::kapi::SrcLoc &loc) {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        const int k = pyasc_sim::kapi::mem_of(pos);
        if (k < 0) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                  "LocalTensor<TensorTrait<T, pos>>(addr %u): position %s is not a local memory (give "
                                  "the TensorTrait a local position such as TPosition::VECCALC)",
                                  addr, pyasc_sim::kapi::pos_name(pos));
        }
        const uint64_t cap = b.capacity[k];
        const uint64_t elems = sim_detail::layout_elements<L>::value;
        if (addr % 32 != 0) {
            pyasc_sim::kapi::fail("ub-alignment", loc,
                                  "LocalTensor<TensorTrait<T, %s>>(addr %u): addr must be 32-byte aligned",
                                  pyasc_sim::kapi::pos_name(pos), addr);
        }
        if (addr >= cap || addr + elems * sizeof(T) > cap) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                  "LocalTensor<TensorTrait<T, %s>>(addr %u): %llu elements of %zu bytes end at byte "
                                  "%llu, past the %llu-byte %s",
                                  pyasc_sim::kapi::pos_name(pos), addr, static_cast<unsigned long long>(elems),
                                  sizeof(T), static_cast<unsigned long long>(addr + elems * sizeof(T)),
                                  static_cast<unsigned long long>(cap), pyasc_sim::kapi::mem_name(k));
        }
        uint8_t *base = b.memory(k);
        const uint64_t bytes = elems != 0 ? elems * sizeof(T) : (cap - addr) / sizeof(T) * sizeof(T);
        return LocalTensor<T>(reinterpret_cast<T *>(base + addr), static_cast<uint32_t>(bytes / sizeof(T)), pos,
                              base + addr, base + addr + bytes);
    }

    Trait trait_;
};

template <typename T, TPosition pos, typename L>
class GlobalTensor<TensorTrait<T, pos, L>> : public GlobalTensor<T> {
public:
    using Trait = TensorTrait<T, pos, L>;
    using PrimType = T;

    void SetTensorTrait(const Trait &t) { trait_ = t; }
    Trait GetTensorTrait() const { return trait_; }
    decltype(auto) GetLayout() const { return trait_.GetLayout(); }
    decltype(auto) GetShape() const { return trait_.GetLayout().GetShape(); }
    decltype(auto) GetStride() const { return trait_.GetLayout().GetStride(); }
    GlobalTensor operator[](const uint64_t offset) const {
        GlobalTensor r = *this;
        static_cast<GlobalTensor<T> &>(r) = GlobalTensor<T>::operator[](offset);
        return r;
    }

    const GlobalTensor<T> &sim_prim() const { return *this; }

private:
    Trait trait_;
};

// ---- the TensorTrait forms of the APIs: the plain API on the LiteType ----------------------
// Each is more specialised than the plain template (whose T would be the TensorTrait), so an
// all-TensorTrait call picks it; the caller's source location is passed on.
#define PYASC_SIM_TT(X, P, L) LocalTensor<TensorTrait<X, P, L>>
#define PYASC_SIM_TT_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()

// Two forms of each: one where every tensor has the same TensorTrait (it must beat the plain
// template, whose T would deduce to that trait), one for tensors whose traits differ in position or
// layout (the plain template does not match those at all).
#define PYASC_SIM_TT_SAME template <typename X, TPosition P, typename L>
#define PYASC_SIM_TT_DIFF2 template <typename X, TPosition P0, typename L0, TPosition P1, typename L1>
#define PYASC_SIM_TT_DIFF3 \
    template <typename X, TPosition P0, typename L0, TPosition P1, typename L1, TPosition P2, typename L2>

#define PYASC_SIM_TT_BINARY(NAME)                                                                                 \
    PYASC_SIM_TT_SAME inline void NAME(const PYASC_SIM_TT(X, P, L) & dst, const PYASC_SIM_TT(X, P, L) & src0,     \
                                       const PYASC_SIM_TT(X, P, L) & src1, const int32_t &count,                  \
                                       PYASC_SIM_TT_LOC) {                                                        \
        NAME(dst.sim_prim(), src0.sim_prim(), src1.sim_prim(), count, loc);                                      \
    }                                                                                                            \
    PYASC_SIM_TT_DIFF3 inline void NAME(const PYASC_SIM_TT(X, P0, L0) & dst, const PYASC_SIM_TT(X, P1, L1) & src0, \
                                        const PYASC_SIM_TT(X, P2, L2) & src1, const int32_t &count,              \
                                        PYASC_SIM_TT_LOC) {                                                       \
        NAME(dst.sim_prim(), src0.sim_prim(), src1.sim_prim(), count, loc);                                      \
    }
#define PYASC_SIM_TT_UNARY(NAME)                                                                                  \
    PYASC_SIM_TT_SAME inline void NAME(const PYASC_SIM_TT(X, P, L) & dst, const PYASC_SIM_TT(X, P, L) & src,      \
                                       const int32_t &count, PYASC_SIM_TT_LOC) {                                  \
        NAME(dst.sim_prim(), src.sim_prim(), count, loc);                                                        \
    }                                                                                                            \
    PYASC_SIM_TT_DIFF2 inline void NAME(const PYASC_SIM_TT(X, P0, L0) & dst, const PYASC_SIM_TT(X, P1, L1) & src, \
                                        const int32_t &count, PYASC_SIM_TT_LOC) {                                 \
        NAME(dst.sim_prim(), src.sim_prim(), count, loc);                                                        \
    }
#define PYASC_SIM_TT_SCALAR(NAME)                                                                                 \
    PYASC_SIM_TT_SAME inline void NAME(const PYASC_SIM_TT(X, P, L) & dst, const PYASC_SIM_TT(X, P, L) & src,      \
                                       const pyasc_sim::kapi::ident_t<X> &scalarValue, const int32_t &count,      \
                                       PYASC_SIM_TT_LOC) {                                                        \
        NAME(dst.sim_prim(), src.sim_prim(), scalarValue, count, loc);                                           \
    }                                                                                                            \
    PYASC_SIM_TT_DIFF2 inline void NAME(const PYASC_SIM_TT(X, P0, L0) & dst, const PYASC_SIM_TT(X, P1, L1) & src, \
                                        const pyasc_sim::kapi::ident_t<X> &scalarValue, const int32_t &count,     \
                                        PYASC_SIM_TT_LOC) {                                                       \
        NAME(dst.sim_prim(), src.sim_prim(), scalarValue, count, loc);                                           \
    }
// DataCopy(dst, src, ARG): DST / SRC name the tensor templates (LocalTensor / GlobalTensor).
#define PYASC_SIM_TT_COPY(DST, SRC, ARG)                                                                          \
    PYASC_SIM_TT_SAME inline void DataCopy(const DST<TensorTrait<X, P, L>> &dst, const SRC<TensorTrait<X, P, L>> &src, \
                                           ARG, PYASC_SIM_TT_LOC) {                                               \
        DataCopy(dst.sim_prim(), src.sim_prim(), a, loc);                                                        \
    }                                                                                                            \
    PYASC_SIM_TT_DIFF2 inline void DataCopy(const DST<TensorTrait<X, P0, L0>> &dst,                               \
                                            const SRC<TensorTrait<X, P1, L1>> &src, ARG, PYASC_SIM_TT_LOC) {      \
        DataCopy(dst.sim_prim(), src.sim_prim(), a, loc);                                                        \
    }

PYASC_SIM_TT_BINARY(Add)
PYASC_SIM_TT_BINARY(Sub)
PYASC_SIM_TT_BINARY(Mul)
PYASC_SIM_TT_BINARY(Div)
PYASC_SIM_TT_BINARY(Max)
PYASC_SIM_TT_BINARY(Min)
PYASC_SIM_TT_UNARY(Exp)
PYASC_SIM_TT_UNARY(Ln)
PYASC_SIM_TT_UNARY(Abs)
PYASC_SIM_TT_UNARY(Relu)
PYASC_SIM_TT_UNARY(Sqrt)
PYASC_SIM_TT_UNARY(Rsqrt)
PYASC_SIM_TT_UNARY(Reciprocal)
PYASC_SIM_TT_SCALAR(Adds)
PYASC_SIM_TT_SCALAR(Muls)
PYASC_SIM_TT_SCALAR(Maxs)
PYASC_SIM_TT_SCALAR(Mins)
// GM -> local, local -> GM, local -> local; count and DataCopyParams forms
PYASC_SIM_TT_COPY(LocalTensor, GlobalTensor, const uint32_t a)
PYASC_SIM_TT_COPY(GlobalTensor, LocalTensor, const uint32_t a)
PYASC_SIM_TT_COPY(LocalTensor, LocalTensor, const uint32_t a)
PYASC_SIM_TT_COPY(LocalTensor, GlobalTensor, const DataCopyParams &a)
PYASC_SIM_TT_COPY(GlobalTensor, LocalTensor, const DataCopyParams &a)
PYASC_SIM_TT_COPY(LocalTensor, LocalTensor, const DataCopyParams &a)

#undef PYASC_SIM_TT_BINARY
#undef PYASC_SIM_TT_UNARY
#undef PYASC_SIM_TT_SCALAR
#undef PYASC_SIM_TT_COPY
#undef PYASC_SIM_TT_SAME
#undef PYASC_SIM_TT_DIFF2
#undef PYASC_SIM_TT_DIFF3

template <typename X, TPosition P, typename L>
inline void Duplicate(const PYASC_SIM_TT(X, P, L) & dst, const pyasc_sim::kapi::ident_t<X> &scalarValue,
                      const int32_t &count, PYASC_SIM_TT_LOC) {
    Duplicate(dst.sim_prim(), scalarValue, count, loc);
}

template <typename X, TPosition P0, typename L0, typename Y, TPosition P1, typename L1>
inline void Cast(const PYASC_SIM_TT(X, P0, L0) & dst, const PYASC_SIM_TT(Y, P1, L1) & src, const RoundMode &round_mode,
                 const uint32_t count, PYASC_SIM_TT_LOC) {
    Cast(dst.sim_prim(), src.sim_prim(), round_mode, count, loc);
}

#undef PYASC_SIM_TT
#undef PYASC_SIM_TT_LOC

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_TENSOR_TRAIT_H_
