// ascendc/host_api/tiling/template_argument.h: tiling template programming ("Tiling模板编程",
// reference pages "Template Argument Declaration" and GET_TPL_TILING_KEY).  An op's
// <op>_tiling_key.h declares its template arguments with ASCENDC_TPL_ARGS_DECL and the combinations
// it builds with ASCENDC_TPL_SEL; the kernel is `template <uint32_t A, ...> __global__ __aicore__`
// with one template parameter per declared argument, in declaration order.  Host code maps the
// argument values to a tiling key with GET_TPL_TILING_KEY(values...).
//
// Tiling key encoding (EncodeTilingKey): the declared arguments in order, the first in the lowest
// bits, each taking its declared bit width (DTYPE / FORMAT 8 bits, BOOL 1 bit, UINT as declared);
// a UINT / DTYPE / FORMAT argument is encoded as the position of its value in the declared value
// list (ranges expanded in order: the reference's rule for UINT), a BOOL as its value.
// ASCENDC_TPL_KERNEL_TYPE_* entries choose the kernel type and are not template arguments;
// ASCENDC_TPL_TILING_STRUCT_SEL entries name a selection's tiling struct and add nothing.
// pyasc_sim.compile(tpl_args={...} or tiling_key=k) builds the instance of the selected
// combination (pyasc_sim/tpl.py implements the same encoding).
#pragma once
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>
#include <cstdio>
#include <string_view>
#include <utility>
#include <vector>

// bit widths
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
// argument kinds
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
// UINT value list forms
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
// kernel types a selection may name (ASCENDC_TPL_KERNEL_TYPE_SEL)
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 2
#define ASCENDC_TPL_MIX_AIC_1_0 3
#define ASCENDC_TPL_MIX_AIC_1_1 4
#define ASCENDC_TPL_MIX_AIC_1_2 5
#define ASCENDC_TPL_MIX_AICORE 6
#define ASCENDC_TPL_MIX_VECTOR_CORE 7
// A DATATYPE argument bound to the kernel's input / output x: a marker in the value list (ignored
// by the encoding; the simulator takes the listed dtypes).
#define ASCENDC_TPL_INPUT(x) (0x8000000000000000ull | static_cast<uint64_t>(x))
#define ASCENDC_TPL_OUTPUT(x) (0xC000000000000000ull | static_cast<uint64_t>(x))

struct ParamStruct {
    const char *name;
    uint32_t paramType;
    uint8_t bitWidth;
    std::vector<uint64_t> vals;
    const char *macroType;
    ParamStruct(const char *inName, uint32_t inParamType, uint8_t inBitWidth, std::vector<uint64_t> inVals,
                const char *inMacroType)
        : name(inName), paramType(inParamType), bitWidth(inBitWidth), vals(std::move(inVals)),
          macroType(inMacroType) {}
};
using TilingDeclareParams = std::vector<ParamStruct>;
using TilingSelectParams = std::vector<std::vector<ParamStruct>>;

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ParamStruct{#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}

#define ASCENDC_TPL_DTYPE_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_UINT_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_UINT, 0, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_BOOL_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) ParamStruct{"kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
// ASCENDC_TPL_TILING_STRUCT_SEL(Struct): names the tiling struct the instances of this selection read
// (newer CANN releases; the struct GET_TILING_DATA / GET_TILING_DATA_WITH_STRUCT fill).  It is no
// template argument and takes no part in the tiling key: as in the SDK's host header it adds no entry
// (an empty element of the braced selection list).  The simulator takes the struct from the
// kernel's REGISTER_TILING_DEFAULT / GET_TILING_DATA_WITH_STRUCT.
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...)

// The op's declaration and selection (one op per translation unit, as in an op project).  The
// trailing ";" after the macro in user code closes the definition.
#define ASCENDC_TPL_ARGS_DECL(x, ...) inline const TilingDeclareParams g_tilingDeclareParams{__VA_ARGS__}
#define ASCENDC_TPL_ARGS_SEL(...) std::vector<ParamStruct>{__VA_ARGS__}
#define ASCENDC_TPL_SEL(...) inline const TilingSelectParams g_tilingSelectParams{__VA_ARGS__}

namespace pyasc_sim {
namespace tpl {

constexpr uint64_t kMarkerBit = 0x8000000000000000ull;

// The values a DECL / SEL entry allows, in declaration order (UINT ranges expanded, markers dropped).
inline std::vector<uint64_t> values(const ParamStruct &p) {
    std::vector<uint64_t> out;
    if (p.paramType != ASCENDC_TPL_UINT) {
        for (uint64_t v : p.vals) {
            if ((v & kMarkerBit) == 0) out.push_back(v);
        }
        return out;
    }
    if (p.vals.empty()) return out;
    const uint64_t mode = p.vals[0];
    size_t i = 1;
    if (mode == ASCENDC_TPL_UI_RANGE || mode == ASCENDC_TPL_UI_MIX) {
        const uint64_t n = i < p.vals.size() ? p.vals[i++] : 0;
        for (uint64_t r = 0; r < n && i + 1 < p.vals.size(); ++r, i += 2) {
            for (uint64_t v = p.vals[i]; v <= p.vals[i + 1]; ++v) {
                out.push_back(v);
                if (v == p.vals[i + 1]) break;  // a range ending at UINT64_MAX
            }
        }
        if (mode == ASCENDC_TPL_UI_RANGE) return out;
    }
    for (; i < p.vals.size(); ++i) out.push_back(p.vals[i]);
    return out;
}

inline bool contains(const std::vector<uint64_t> &vs, uint64_t v) {
    for (uint64_t x : vs) {
        if (x == v) return true;
    }
    return false;
}

}  // namespace tpl
}  // namespace pyasc_sim

namespace AscendC {

// GET_TPL_TILING_KEY's encoder.  Values outside the declaration, or a combination no
// ASCENDC_TPL_ARGS_SEL selects, print the reason to stderr and return UINT64_MAX (the value
// SetTilingKey rejects).
inline uint64_t EncodeTilingKey(TilingDeclareParams declareParams, TilingSelectParams selectParamsVec,
                                std::vector<uint64_t> tilingParams) {
    using pyasc_sim::tpl::contains;
    using pyasc_sim::tpl::values;
    std::vector<const ParamStruct *> args;
    for (const ParamStruct &p : declareParams) {
        if (p.paramType != ASCENDC_TPL_KERNEL_TYPE) args.push_back(&p);
    }
    if (tilingParams.size() != args.size()) {
        std::fprintf(stderr, "GET_TPL_TILING_KEY: %zu value(s) given, the declaration has %zu template argument(s)\n",
                     tilingParams.size(), args.size());
        return UINT64_MAX;
    }
    uint64_t key = 0;
    unsigned shift = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        const ParamStruct &p = *args[i];
        const std::vector<uint64_t> vs = values(p);
        uint64_t code = 0;
        if (p.paramType == ASCENDC_TPL_BOOL) {
            code = tilingParams[i];
            if (code > 1 || !contains(vs, code)) code = UINT64_MAX;
        } else {
            code = UINT64_MAX;
            for (size_t j = 0; j < vs.size(); ++j) {
                if (vs[j] == tilingParams[i]) { code = j; break; }
            }
        }
        if (code == UINT64_MAX || (p.bitWidth < 64 && code >> p.bitWidth != 0)) {
            std::fprintf(stderr, "GET_TPL_TILING_KEY: %s = %llu is not a declared value (or does not fit %u bits)\n",
                         p.name, static_cast<unsigned long long>(tilingParams[i]), p.bitWidth);
            return UINT64_MAX;
        }
        key |= code << shift;
        shift += p.bitWidth;
    }
    bool selected = selectParamsVec.empty();
    for (const std::vector<ParamStruct> &sel : selectParamsVec) {
        bool ok = true;
        for (const ParamStruct &s : sel) {
            for (size_t i = 0; i < args.size(); ++i) {
                if (std::string_view(s.name) == args[i]->name && !contains(values(s), tilingParams[i])) ok = false;
            }
        }
        if (ok) { selected = true; break; }
    }
    if (!selected) {
        std::fprintf(stderr, "GET_TPL_TILING_KEY: no ASCENDC_TPL_ARGS_SEL selects these values\n");
        return UINT64_MAX;
    }
    return key;
}

}  // namespace AscendC

#define GET_TPL_TILING_KEY(...) \
    AscendC::EncodeTilingKey(g_tilingDeclareParams, g_tilingSelectParams, {__VA_ARGS__})
#include "pyasc_sim/sdk_end.h"
