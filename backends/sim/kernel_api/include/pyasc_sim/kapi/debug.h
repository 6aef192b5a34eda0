// Ascend C on the CPU -- kernel debugging output: AscendC::printf / PRINTF, AssertPrint, DumpTensor, ASSERT,
// assert / ascendc_assert, ASSERT_MSG.
//
// Output of a block is buffered and written to the device process's standard output (the host
// process's, which the device process inherits) in one piece when the block ends, so each
// block's lines stay together and blocks never interleave.  A failed ASSERT ends the block as a
// kernel error ('assert' check) naming the condition and the source line, like any sanitizer check.
#ifndef PYASC_SIM_KAPI_DEBUG_H_
#define PYASC_SIM_KAPI_DEBUG_H_

#include <unistd.h>

#include <cstdio>
#include <string>

#include "pyasc_sim/kapi/system_counter.h"  // GetSystemCycle (PrintTimeStamp)
#include "pyasc_sim/kapi/tensor.h"

namespace pyasc_sim {
namespace kapi {

// The running block's buffered output (one buffer per worker thread: a thread runs one block at a time).
inline std::string &block_output() {
    thread_local std::string out;
    return out;
}
inline void append_output(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
inline void append_output(const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (static_cast<size_t>(n) < sizeof(small)) {
        block_output().append(small, static_cast<size_t>(n));
        return;
    }
    std::string big(static_cast<size_t>(n) + 1, '\0');
    va_start(ap, fmt);
    std::vsnprintf(&big[0], big.size(), fmt, ap);
    va_end(ap);
    big.resize(static_cast<size_t>(n));
    block_output() += big;
}
// Writes the block's output in one piece (called by the entry stub when the block ends).
inline void flush_block_output() {
    std::string &out = block_output();
    if (out.empty()) return;
    std::fflush(stdout);
    size_t done = 0;
    while (done < out.size()) {
        const ssize_t w = ::write(1, out.data() + done, out.size() - done);
        if (w <= 0) break;
        done += static_cast<size_t>(w);
    }
    out.clear();
}

// printf arguments: half and bfloat16_t print as double (%f), everything else as passed.
template <typename A>
inline auto printf_arg(A a) {
    if constexpr (std::is_same<A, half>::value || std::is_same<A, bfloat16_t>::value || std::is_same<A, float>::value) {
        return static_cast<double>(static_cast<float>(a));
    } else {
        return a;
    }
}

inline std::string assert_detail() { return std::string(); }
template <typename... A>
inline std::string assert_detail(const char *fmt, A... a) {
    char buf[512];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    std::snprintf(buf, sizeof(buf), fmt, printf_arg(a)...);
#pragma GCC diagnostic pop
    return buf;
}
template <typename C, typename... A>
inline void assert_check(const char *text, const SrcLoc &loc, const C &cond, A... detail) {
    if (static_cast<bool>(cond)) return;
    const std::string d = assert_detail(detail...);
    fail("assert", loc, "ASSERT(%s) failed%s%s", text, d.empty() ? "" : ": ", d.c_str());
}

// ASSERT_MSG's failure: the condition's text and the formatted message (a trailing newline dropped).
template <typename... A>
[[noreturn]] inline void assert_msg_fail(const char *text, const SrcLoc &loc, const char *fmt, A... a) {
    std::string d = assert_detail(fmt, a...);
    while (!d.empty() && d.back() == '\n') d.pop_back();
    fail("assert", loc, "ASSERT_MSG(%s) failed%s%s", text, d.empty() ? "" : ": ", d.c_str());
}

}  // namespace kapi
}  // namespace pyasc_sim

namespace AscendC {

// printf / PRINTF: format as C printf (%d %i %u %x %o %f %s %p %c, l / ll modifiers); half and
// bfloat16_t arguments print as floating values.  A call with only a format string resolves to
// the C library's printf (same output stream, unbuffered by block).
template <typename... Args>
inline void printf(const char *fmt, Args... args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    pyasc_sim::kapi::append_output(fmt, pyasc_sim::kapi::printf_arg(args)...);
#pragma GCC diagnostic pop
}
template <typename... Args>
inline void PRINTF(const char *fmt, Args... args) {
    AscendC::printf(fmt, args...);
}

// AssertPrint(fmt, args...): the print step of the SDK's assert path.  asc-devkit's own assert macros expand to
// `AscendC::AssertPrint("[ASSERT] ... %s:%u: Assertion `%s' " fmt, ..., __FILE__, __LINE__, #expr, args...)`
// followed by `trap()`, and public kernels call it the same way before `AscendC::Trap()` (vllm-ascend's
// categorical_sample).  It is not in the public API reference; here it formats like printf into the block's
// output (flushed when the block ends, also when it ends with an error) and does not stop the kernel: the
// Trap() after it does.
template <typename... Args>
inline void AssertPrint(const char *fmt, Args... args) {
    AscendC::printf(fmt, args...);
}

namespace sim_detail {
template <typename T>
inline const char *dtype_name() {
    if (std::is_same<T, float>::value) return "float";
    if (std::is_same<T, half>::value) return "half";
    if (std::is_same<T, bfloat16_t>::value) return "bfloat16_t";
    if (std::is_same<T, int8_t>::value) return "int8_t";
    if (std::is_same<T, uint8_t>::value) return "uint8_t";
    if (std::is_same<T, int16_t>::value) return "int16_t";
    if (std::is_same<T, uint16_t>::value) return "uint16_t";
    if (std::is_same<T, int32_t>::value) return "int32_t";
    if (std::is_same<T, uint32_t>::value) return "uint32_t";
    if (std::is_same<T, int64_t>::value) return "int64_t";
    if (std::is_same<T, uint64_t>::value) return "uint64_t";
    return "unknown";
}
template <typename T>
inline void dump_values(const T *p, uint32_t n) {
    pyasc_sim::kapi::append_output("[");
    for (uint32_t i = 0; i < n; ++i) {
        const char *sep = i == 0 ? "" : ", ";
        if constexpr (std::is_integral<T>::value) {
            pyasc_sim::kapi::append_output("%s%lld", sep, static_cast<long long>(p[i]));
        } else {
            pyasc_sim::kapi::append_output("%s%.9g", sep, pyasc_sim::kapi::to_double(p[i]));
        }
    }
    pyasc_sim::kapi::append_output("]\n");
}
}  // namespace sim_detail

// DumpTensor(tensor, desc, dumpSize): prints a header line and the first dumpSize elements
// (checked against the tensor's buffer / GlobalTensor size like a read).
template <typename T>
inline void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize,
                       pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    tensor.check(0, dumpSize, "DumpTensor reads", loc);
    pyasc_sim::kapi::append_output("DumpTensor: desc=%u, block=%u, position=%s, data_type=%s, dump_size=%u\n", desc,
                                   pyasc_sim::kapi::blk().block_idx, pyasc_sim::kapi::pos_name(tensor.GetPosition()),
                                   sim_detail::dtype_name<T>(), dumpSize);
    sim_detail::dump_values(tensor.ptr(), dumpSize);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize,
                       pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    tensor.check(0, dumpSize, false, "DumpTensor reads", loc);
    pyasc_sim::kapi::append_output("DumpTensor: desc=%u, block=%u, position=GM, data_type=%s, dump_size=%u\n", desc,
                                   pyasc_sim::kapi::blk().block_idx, sim_detail::dtype_name<T>(), dumpSize);
    sim_detail::dump_values(tensor.GetPhyAddr(), dumpSize);
}

// PrintTimeStamp(descId) (page PrintTimeStamp, atlasascendc_api_07_00002; Atlas A2 / A3 / 350): a time-stamp mark
// for debugging.  Off by default -- the call does nothing -- and on only when the kernel is built with
// -DASCENDC_TIME_STAMP_ON, when it prints "descId is <id>, rsv is 0, timeStamp is <cycles>, pcPtr is <pc>, entry is
// <cycles>." (the page's line).  The simulator's timeStamp is GetSystemCycle() (the block's modelled counter); it has
// no program counter or operator entry cycle to report, so pcPtr and entry print 0 (fields the page says users need
// not look at).
inline void PrintTimeStamp(uint32_t descId) {
#if defined(ASCENDC_TIME_STAMP_ON)
    const long long stamp = static_cast<long long>(GetSystemCycle());
    pyasc_sim::kapi::append_output("descId is %u, rsv is 0, timeStamp is %lld, pcPtr is 0, entry is 0.\n", descId,
                                   stamp);
#else
    (void)descId;
#endif
}

}  // namespace AscendC

namespace pyasc_sim {
namespace kapi {

// What ASSERT expands to: `- AssertTail{check};`.  The check runs when the temporary dies, at the end of the
// full expression, so the one expansion works in every place public kernels write ASSERT: as a statement
// (`ASSERT(c);`, `if (k) ASSERT(c);`; the unary minus does nothing), without its semicolon before the next
// statement (RecSDK's norm_multiply_dropout kernels), and as the tail of an expression whose `;` the kernel
// forgot (`x = a ASSERT(c);`, NPUKernelBench's MseLoss / Lerp answers, which build on the NPU only where ASSERT
// expands to nothing): the binary minus yields `a` unchanged and the check runs after `x` is set.
template <typename F>
struct AssertTail {
    F check;
    ~AssertTail() noexcept(false) { check(); }  // a failed check throws KernelAbort, as every check does
    void operator-() const {}
};
template <typename F>
AssertTail(F) -> AssertTail<F>;
template <typename T, typename F>
inline T operator-(T value, const AssertTail<F> &) {
    return value;
}

}  // namespace kapi
}  // namespace pyasc_sim

// ASSERT(cond) and ASSERT(cond, fmt, args...): a false condition is a kernel error (see AssertTail above for
// where it may stand).  Deviation: `if (c) ASSERT(x); else ...` does not compile (the expansion brings its own
// `;`; write braces around the ASSERT).
#ifndef ASSERT
#define ASSERT(...)                                                                                     \
    -::pyasc_sim::kapi::AssertTail{                                                                     \
        [&]() { ::pyasc_sim::kapi::assert_check(#__VA_ARGS__, ::pyasc_sim::kapi::SrcLoc(), __VA_ARGS__); }};
#endif

// assert(expr) / assert(expr, fmt, args...) and ascendc_assert(...): the documented kernel-side assert (page
// assert, 调试接口/异常检测; ascendc_assert in CANN 9): as ASSERT.  It replaces the C library's macro in kernel
// code (<cassert> is included first so a later include does not see it undefined; one included after
// kernel_operator.h brings the C macro back, one argument only).
#include <cassert>
#undef assert
#define assert(...) ::pyasc_sim::kapi::assert_check(#__VA_ARGS__, ::pyasc_sim::kapi::SrcLoc(), __VA_ARGS__)
#ifndef ascendc_assert
#define ascendc_assert(...) ::pyasc_sim::kapi::assert_check(#__VA_ARGS__, ::pyasc_sim::kapi::SrcLoc(), __VA_ARGS__)
#endif

// ASSERT_MSG(expr, fmt, args...): the SDK's kernel-side assert with a message.  Not on a reference page; every
// asc-devkit edition defines it in impl/basic_api/kernel_log.h, which kernel_operator.h reaches through
// kernel_utils_macros.h (hicann 0661b376, mirror-cann 2e0db4c9, cannmirror 44f825b0; the 2023 Apache-2.0 edition
// the same), as a `do { if (!(expr)) { ...; } } while (0)` statement: the NPU build prints
// "[ASSERT] <file>:<line>: Assertion `<expr>' " fmt with args (AssertPrint; nothing is printed under
// ASCENDC_DUMP=0) and then traps, the CPU-debug build prints that to stderr and aborts.  The condition is
// evaluated and a false one stops the kernel in every build: no switch compiles it out.  fmt is pasted after the
// prefix, so it must be a string literal, as here.  A false condition ends the block as an `assert` error naming
// the condition and the formatted message (COMPAT.md "Round 25 (s25a)").
#ifndef ASSERT_MSG
#define ASSERT_MSG(expr, fmt, ...)                                                                        \
    do {                                                                                                 \
        if (!(expr)) {                                                                                   \
            ::pyasc_sim::kapi::assert_msg_fail(#expr, ::pyasc_sim::kapi::SrcLoc(), "" fmt __VA_OPT__(, ) \
                                                   __VA_ARGS__);                                         \
        }                                                                                                \
    } while (0)
#endif

#endif  // PYASC_SIM_KAPI_DEBUG_H_
