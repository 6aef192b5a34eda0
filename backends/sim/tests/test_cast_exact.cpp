// Cast's fast paths (kapi/vector.h cast_fast: float -> int16/int32/int64 in every RoundMode, int32
// -> float, int16 -> float, int32 -> int64) against the element conversion they replace (cast_fn),
// bit for bit: every 257th float / int32 bit pattern (argument --all: every one), every int16, and
// the rounding ties and saturation edges. Exits 1 on a difference.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <vector>
#include "kernel_operator.h"
using namespace AscendC;
template <typename T> uint64_t b(T v) { uint64_t r = 0; std::memcpy(&r, &v, sizeof(T)); return r; }
template <typename T, typename U>
int check(const std::vector<U> &in, const char *name) {
    const RoundMode modes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                               RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD, RoundMode::CAST_HYBRID};
    std::vector<T> out(in.size());
    int bad = 0;
    for (RoundMode m : modes) {
        if (!sim_detail::has_cast_fast<T, U>(m)) continue;
        sim_detail::cast_fast(out.data(), in.data(), (int64_t)in.size(), m);
        pyasc_sim::kapi::SrcLoc loc;
        auto f = sim_detail::cast_fn<T, U>(m, loc);
        for (size_t i = 0; i < in.size(); ++i) {
            T w = f(in[i]);
            if (b(w) != b(out[i])) { if (bad++ < 5) std::printf("%s mode %d in %" PRIx64 ": fast %" PRIx64 " ref %" PRIx64 "\n", name, (int)m, b(in[i]), b(out[i]), b(w)); }
        }
    }
    std::printf("%s: %d mismatches\n", name, bad);
    return bad;
}
int main(int argc, char **argv) {
    std::vector<float> f;
    const uint64_t step = argc > 1 && std::strcmp(argv[1], "--all") == 0 ? 1 : 257;
    for (uint64_t x = 0; x < (1ull << 32); x += step) { uint32_t v = (uint32_t)x; float g; std::memcpy(&g, &v, 4); f.push_back(g); }
    for (float e : {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 32767.5f, -32768.5f, 32768.f, -32769.f, 2147483520.f, 2147483648.f, -2147483648.f, -2147483904.f, 9.2233715e18f, 9.223372e18f, -9.223372e18f, -9.2233725e18f, INFINITY, -INFINITY, NAN})
        f.push_back(e);
    int bad = check<int32_t, float>(f, "f32->i32") + check<int16_t, float>(f, "f32->i16") + check<int64_t, float>(f, "f32->i64");
    std::vector<int32_t> i;
    for (uint64_t x = 0; x < (1ull << 32); x += step) i.push_back((int32_t)(uint32_t)x);
    for (int32_t e : {INT32_MAX, INT32_MIN, 16777217, -16777217, 33554435}) i.push_back(e);
    bad += check<float, int32_t>(i, "i32->f32") + check<int64_t, int32_t>(i, "i32->i64");
    std::vector<int16_t> h;
    for (int x = -32768; x < 32768; ++x) h.push_back((int16_t)x);
    bad += check<float, int16_t>(h, "i16->f32");
    return bad ? 1 : 0;
}
