// Ascend C on the CPU -- spellings public kernels use besides the main API: the lowercase
// intrinsics set_flag / wait_flag (pipe_barrier lives in sync.h) and LocalTensor arithmetic
// operators (dst = src0 + src1 runs Add over dst.GetSize() elements, as documented).
#ifndef PYASC_SIM_KAPI_INTRINSICS_H_
#define PYASC_SIM_KAPI_INTRINSICS_H_

#include "pyasc_sim/kapi/sync.h"
#include "pyasc_sim/kapi/vector_more.h"

// ---- set_flag(src pipe, dst pipe, event id) / wait_flag: SetFlag / WaitFlag of the HardEvent
// whose name is SRC_DST -------------------------------------------------------------------------------
namespace pyasc_sim {
namespace kapi {
#define PYASC_SIM_EVENTS(X)                                                                                           \
    X(MTE2, MTE1) X(MTE1, MTE2) X(MTE1, M) X(M, MTE1) X(MTE2, V) X(V, MTE2) X(MTE3, V) X(V, MTE3) X(M, V) X(V, M)   \
    X(V, V) X(MTE3, MTE1) X(MTE1, MTE3) X(MTE1, V) X(MTE2, M) X(M, MTE2) X(V, MTE1) X(M, FIX) X(FIX, M)             \
    X(MTE3, MTE2) X(MTE2, MTE3) X(S, V) X(V, S) X(S, MTE2) X(MTE2, S) X(S, MTE3) X(MTE3, S) X(MTE2, FIX)           \
    X(FIX, MTE2) X(FIX, S) X(M, S) X(FIX, MTE3) X(MTE1, FIX) X(FIX, MTE1) X(FIX, FIX)

template <bool set>
inline void lowercase_flag(pipe_t src, pipe_t dst, int id, const SrcLoc &loc) {
#define PYASC_SIM_EVENT_CASE(S, D)                                                                                    \
    if (src == PIPE_##S && dst == PIPE_##D) {                                                                        \
        if (set) {                                                                                                   \
            AscendC::SetFlag<AscendC::HardEvent::S##_##D>(id, loc);                                                   \
        } else {                                                                                                     \
            AscendC::WaitFlag<AscendC::HardEvent::S##_##D>(id, loc);                                                  \
        }                                                                                                            \
        return;                                                                                                      \
    }
    PYASC_SIM_EVENTS(PYASC_SIM_EVENT_CASE)
#undef PYASC_SIM_EVENT_CASE
    fail("event-id", loc, "%s(pipe %d, pipe %d, %d): no HardEvent synchronises these two pipes",
         set ? "set_flag" : "wait_flag", static_cast<int>(src), static_cast<int>(dst), id);
}
#undef PYASC_SIM_EVENTS
}  // namespace kapi
}  // namespace pyasc_sim

inline void set_flag(pipe_t pipe, pipe_t tpipe, event_t id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    pyasc_sim::kapi::lowercase_flag<true>(pipe, tpipe, static_cast<int>(id), loc);
}
inline void wait_flag(pipe_t pipe, pipe_t tpipe, event_t id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    pyasc_sim::kapi::lowercase_flag<false>(pipe, tpipe, static_cast<int>(id), loc);
}
inline void set_flag(pipe_t pipe, pipe_t tpipe, int id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    pyasc_sim::kapi::lowercase_flag<true>(pipe, tpipe, id, loc);
}
inline void wait_flag(pipe_t pipe, pipe_t tpipe, int id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    pyasc_sim::kapi::lowercase_flag<false>(pipe, tpipe, id, loc);
}

namespace AscendC {

// ---- LocalTensor operators: an expression object that LocalTensor::operator= evaluates ------------
namespace sim_detail {
enum class TensorOp { Add, Sub, Mul, Div, Or, And, Lt, Gt, Le, Ge, Eq, Ne };
template <typename T>
struct TensorExpr {
    LocalTensor<T> a, b;
    TensorOp op;
    pyasc_sim::kapi::SrcLoc loc;
    // Reports an operator whose instruction's table does not list the element type, at its line.
    [[noreturn]] void undocumented(const char *api, const char *sym) const {
        pyasc_sim::kapi::fail("dtype-table", loc, "LocalTensor operator%s is AscendC::%s, which is not documented "
                              "for this %zu-byte element type on this SoC (see pyasc_sim/kapi/dtype_tables.h)",
                              sym, api, sizeof(T));
    }
    // Called by `dst = expr`: the documented equivalent instruction over dst.GetSize() elements.
    template <typename D>
    void sim_assign(const LocalTensor<D> &dst) const {
        const int32_t n = static_cast<int32_t>(dst.GetSize());
        if constexpr (std::is_same<D, T>::value) {
            // Each case is the documented instruction; the op is known only at run time, so a case is
            // instantiated only for a type that API's table lists (dtype_tables.h) and any other type
            // is refused when the line runs (e.g. `&` on int8_t).  `&` / `|` on int32_t / uint32_t are And / Or
            // over 2 x GetSize() 16-bit lanes on Atlas A2 / A3, as the SDK's operators (kapi/vector_more.h).
            switch (op) {
                case TensorOp::Add:
                    if constexpr (PYASC_SIM_DTYPE_OK(Add, T)) {
                        Add(dst, a, b, n, loc);
                    } else {
                        undocumented("Add", "+");
                    }
                    return;
                case TensorOp::Sub:
                    if constexpr (PYASC_SIM_DTYPE_OK(Sub, T)) {
                        Sub(dst, a, b, n, loc);
                    } else {
                        undocumented("Sub", "-");
                    }
                    return;
                case TensorOp::Mul:
                    if constexpr (PYASC_SIM_DTYPE_OK(Mul, T)) {
                        Mul(dst, a, b, n, loc);
                    } else {
                        undocumented("Mul", "*");
                    }
                    return;
                case TensorOp::Div:
                    if constexpr (PYASC_SIM_DTYPE_OK(Div, T)) {
                        Div(dst, a, b, n, loc);
                    } else {
                        undocumented("Div", "/");
                    }
                    return;
                case TensorOp::Or:
                    if constexpr (std::is_integral<T>::value && PYASC_SIM_DTYPE_OK(Or, T) &&
                                  !sim_detail::bitwise_b32_lanes16<T>) {
                        Or(dst, a, b, n, loc);
                    } else if constexpr (sim_detail::bitwise_b32_lanes16<T>) {
                        Or(dst, a, b, 2 * n, loc);  // 16-bit lanes: the SDK's `|` passes GetSize() * 2
                    } else {
                        undocumented("Or", "|");
                    }
                    return;
                case TensorOp::And:
                    if constexpr (std::is_integral<T>::value && PYASC_SIM_DTYPE_OK(And, T) &&
                                  !sim_detail::bitwise_b32_lanes16<T>) {
                        And(dst, a, b, n, loc);
                    } else if constexpr (sim_detail::bitwise_b32_lanes16<T>) {
                        And(dst, a, b, 2 * n, loc);  // 16-bit lanes: the SDK's `&` passes GetSize() * 2
                    } else {
                        undocumented("And", "&");
                    }
                    return;
                default: break;
            }
        }
        const CMPMODE m = op == TensorOp::Lt ? CMPMODE::LT : op == TensorOp::Gt ? CMPMODE::GT
                        : op == TensorOp::Le ? CMPMODE::LE : op == TensorOp::Ge ? CMPMODE::GE
                        : op == TensorOp::Eq ? CMPMODE::EQ : CMPMODE::NE;
        // compare: dst holds one bit per element of the sources
        if constexpr (PYASC_SIM_DTYPE_OK(Compare, T)) {
            Compare(dst, a, b, m, a.GetSize(), loc);
        } else {
            undocumented("Compare", " <, >, <=, >=, == or !=");
        }
    }
};
}  // namespace sim_detail

namespace sim_detail {
// The right operand of a LocalTensor operator.  An operator function cannot take a defaulted
// source-location argument, so the caller's line rides on this implicit conversion instead: the
// converting constructor's defaulted SrcLoc is evaluated at the operator expression in the kernel,
// so checks (pipe-race, bounds, initcheck) name the kernel's line, not this header.
template <typename T>
struct OperandAt {
    const LocalTensor<T> &t;
    pyasc_sim::kapi::SrcLoc loc;
    OperandAt(const LocalTensor<T> &x, pyasc_sim::kapi::SrcLoc l = pyasc_sim::kapi::SrcLoc())  // NOLINT: implicit
        : t(x), loc(l) {}
};
template <typename T>
struct NoDeduce {
    using type = T;
};
}  // namespace sim_detail

#define PYASC_SIM_TENSOR_OP(SYM, OP)                                                                                 \
    template <typename T>                                                                                            \
    inline sim_detail::TensorExpr<T> operator SYM(                                                                   \
        const LocalTensor<T> &a, const typename sim_detail::NoDeduce<sim_detail::OperandAt<T>>::type &b) {          \
        return sim_detail::TensorExpr<T>{a, b.t, sim_detail::TensorOp::OP, b.loc};                                    \
    }
PYASC_SIM_TENSOR_OP(+, Add)
PYASC_SIM_TENSOR_OP(-, Sub)
PYASC_SIM_TENSOR_OP(*, Mul)
PYASC_SIM_TENSOR_OP(/, Div)
PYASC_SIM_TENSOR_OP(|, Or)
PYASC_SIM_TENSOR_OP(&, And)
PYASC_SIM_TENSOR_OP(<, Lt)
PYASC_SIM_TENSOR_OP(>, Gt)
PYASC_SIM_TENSOR_OP(<=, Le)
PYASC_SIM_TENSOR_OP(>=, Ge)
PYASC_SIM_TENSOR_OP(==, Eq)
PYASC_SIM_TENSOR_OP(!=, Ne)
#undef PYASC_SIM_TENSOR_OP

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_INTRINSICS_H_
