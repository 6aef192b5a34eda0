// register/tilingdata_base.h -- the tiling-struct macros of an Ascend C op project's host tiling header
// (BEGIN_TILING_DATA_DEF / TILING_DATA_FIELD_DEF / _ARR / _STRUCT / END_TILING_DATA_DEF /
// REGISTER_TILING_DATA_CLASS), written for pyasc_sim from the public Ascend C documentation.
//
// Each BEGIN_TILING_DATA_DEF(Name) ... END_TILING_DATA_DEF block declares one plain, trivially
// copyable C++ struct `Name` whose members are the fields in declaration order with their natural C
// alignment: the bytes the host fills (set_<field>(v), SaveToBuffer, GetDataSize) are exactly the bytes
// the kernel reads with GET_TILING_DATA (pyasc_sim.compile(tiling_header=...) includes this header in
// the kernel).  Every struct can list its fields (name, C type, offset, size, element count) through
// Name::__pyasc_visit(visitor), which pyasc_sim.tiling_struct() uses to fill it from Python by name.
#ifndef PYASC_SIM_REGISTER_TILINGDATA_BASE_H_
#define PYASC_SIM_REGISTER_TILINGDATA_BASE_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace pyasc_sim {
namespace tiling {

template <int I>
struct tag {};

template <typename T, typename = void>
struct is_tiling_struct : std::false_type {};
template <typename T>
struct is_tiling_struct<T, std::void_t<decltype(&T::template __pyasc_visit<int>)>> : std::true_type {};

template <typename Self, int First, int Last, typename V>
inline void visit_fields(V &v) {
    if constexpr (First < Last) {
        Self::__pyasc_field(v, tag<First>{});
        visit_fields<Self, First + 1, Last>(v);
    }
}

}  // namespace tiling
}  // namespace pyasc_sim

namespace optiling {}
// The kernel names the op's tiling structs without the host namespace, as the NPU build does. A build with
// pyasc_sim.compile(tiling_header=...) brings in just those structs' names (build.py tiling_scoped_names ->
// PYASC_SIM_TILING_NAMES, expanded in kapi/host_header_end.h): CANN's kernel build sees the generated tiling
// structs and nothing else of the host header's namespace. Otherwise (a source that includes its tiling header
// itself, a header build.py cannot read simply) the whole namespace is brought in.
#ifndef PYASC_SIM_TILING_NAMES
using namespace optiling;
#endif

#define BEGIN_TILING_DATA_DEF(class_name)                                                   \
    class class_name {                                                                      \
    public:                                                                                 \
        using __pyasc_self = class_name;                                                    \
        static constexpr int __pyasc_first = __COUNTER__;                                   \
        template <typename V, int I>                                                        \
        static void __pyasc_field(V &, ::pyasc_sim::tiling::tag<I>) {}

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                        \
    public:                                                                                 \
        data_type field_name{};                                                             \
        void set_##field_name(data_type v) { field_name = v; }                              \
        data_type get_##field_name() const { return field_name; }                           \
        template <typename V>                                                               \
        static void __pyasc_field(V &v, ::pyasc_sim::tiling::tag<__COUNTER__>) {            \
            v.template field<data_type>(#field_name, #data_type, offsetof(__pyasc_self, field_name), 1); \
        }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                           \
    public:                                                                                 \
        arr_type field_name[arr_size]{};                                                    \
        void set_##field_name(const arr_type *v) { std::memcpy(field_name, v, sizeof(field_name)); } \
        const arr_type *get_##field_name() const { return field_name; }                     \
        template <typename V>                                                               \
        static void __pyasc_field(V &v, ::pyasc_sim::tiling::tag<__COUNTER__>) {            \
            v.template field<arr_type>(#field_name, #arr_type, offsetof(__pyasc_self, field_name), (arr_size)); \
        }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                               \
    public:                                                                                 \
        struct_type field_name{};                                                           \
        template <typename V>                                                               \
        static void __pyasc_field(V &v, ::pyasc_sim::tiling::tag<__COUNTER__>) {            \
            v.template field<struct_type>(#field_name, #struct_type, offsetof(__pyasc_self, field_name), 1); \
        }

// Ends with `};`, as the toolchain's macro does, so both `END_TILING_DATA_DEF;` and a bare
// `END_TILING_DATA_DEF` (GeGluGradV2's tiling header) close the struct.
#define END_TILING_DATA_DEF                                                                 \
    public:                                                                                 \
        static constexpr int __pyasc_last = __COUNTER__;                                    \
        template <typename V>                                                               \
        static void __pyasc_visit(V &v) {                                                   \
            ::pyasc_sim::tiling::visit_fields<__pyasc_self, __pyasc_first + 1, __pyasc_last>(v); \
        }                                                                                   \
        void SaveToBuffer(void *buf, size_t capacity) const {                               \
            std::memcpy(buf, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);   \
        }                                                                                   \
        size_t GetDataSize() const { return sizeof(*this); }                                \
    };

// The op type -> tiling struct association GET_TILING_DATA resolves (pyasc_sim.compile(op_type=...)).
#define REGISTER_TILING_DATA_CLASS(op_type, class_name) using __pyasc_tiling_type_##op_type = class_name;

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_REGISTER_TILINGDATA_BASE_H_
